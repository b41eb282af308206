import { describe, expect, it } from 'vitest';
import { closedConnection } from '../../rpc/closedConnection.js';
import { WalletError } from '../wallet.js';
import { EvmRpc, refusalKind } from './evmRpc.js';

describe('refusalKind', () => {
  it("reads insufficient funds in each node's words", () => {
    // go-ethereum core/error.go ErrInsufficientFunds; Hardhat 2.29's answer, seen on its node.
    expect(
      refusalKind({ code: -32000, message: 'insufficient funds for gas * price + value: address 0x12 have 0 want 1' }),
    ).toBe('insufficient-funds');
    expect(
      refusalKind({
        code: -32000,
        message:
          "Sender doesn't have enough funds to send tx. The max upfront cost is: 1 and the sender's balance is: 0.",
      }),
    ).toBe('insufficient-funds');
  });

  it('takes an internal error or an exceeded limit as no answer, and other refusals as final', () => {
    expect(refusalKind({ code: -32603, message: 'Internal error' })).toBe('unreachable');
    expect(refusalKind({ code: -32005, message: 'limit exceeded' })).toBe('unreachable');
    expect(refusalKind({ code: -32000, message: 'replacement transaction underpriced' })).toBe('rejected');
    expect(refusalKind({ code: -32602, message: 'Invalid transaction type 18.' })).toBe('rejected');
  });
});

describe('EvmRpc readings', () => {
  const rpc = new EvmRpc('ETH', 'http://127.0.0.1:1', 1000);

  it('reads hex quantities exactly', () => {
    expect(rpc.toQuantity('x', '0x0')).toBe(0n);
    expect(rpc.toQuantity('x', '0x00ff')).toBe(255n);
    expect(rpc.toQuantity('x', '0x21e19e0c9bab2400000')).toBe(10_000n * 10n ** 18n);
  });

  it('refuses anything else as an answer it cannot make sense of', () => {
    for (const bad of ['0x', '12', 12, null, '0xg1', `0x${'f'.repeat(65)}`]) {
      const error = (() => {
        try {
          rpc.toQuantity('eth_getBalance', bad);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(WalletError);
      expect((error as WalletError).kind).toBe('unknown');
    }
    expect(() => rpc.toCount('eth_blockNumber', '0x20000000000000')).toThrow(/beyond any real count/);
    expect(() => rpc.toData('eth_call', '0x123')).toThrow(/hex data/);
    expect(rpc.toData('eth_call', '0x')).toBe('0x');
  });
});

describe('closedConnection', () => {
  it('finds a socket the node closed anywhere in the cause chain, and nothing else', () => {
    const undici = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(
      closedConnection(new Error('HTTP request failed.', { cause: new TypeError('fetch failed', { cause: undici }) })),
    ).toBe(true);
    expect(closedConnection(Object.assign(new Error('read'), { code: 'ECONNRESET' }))).toBe(true);
    expect(closedConnection(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(closedConnection(new Error('The request took too long to respond.'))).toBe(false);
  });
});
