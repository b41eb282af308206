import { WalletError } from '@lodestone/chain';
import { describe, expect, it } from 'vitest';
import { nothingWasSent } from './nodeWalletChannel.js';

describe('a failed wallet call', () => {
  it('treats only refusals that prove nothing left the wallet as "nothing was sent"', () => {
    const e = (kind: WalletError['kind'], mayHaveSent: boolean) =>
      new WalletError(kind, 'x', { coin: 'LTC', mayHaveSent });
    expect(nothingWasSent(e('insufficient-funds', false))).toBe(true);
    expect(nothingWasSent(e('invalid-address', false))).toBe(true);
    expect(nothingWasSent(e('rejected', false))).toBe(true);
    expect(nothingWasSent(e('rejected', true))).toBe(false);
    expect(nothingWasSent(e('unreachable', false))).toBe(false);
    expect(nothingWasSent(e('unknown', false))).toBe(false);
    expect(nothingWasSent(new Error('socket hang up'))).toBe(false);
  });
});
