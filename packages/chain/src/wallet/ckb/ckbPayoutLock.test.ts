import { describe, expect, it } from 'vitest';
import { payoutLock } from './ckbPayoutLock.js';

// Addresses from nervosnetwork/rfcs rfcs/0021-ckb-address-format (commit 4b502ffc, "Examples") and the real
// mainnet transaction of packages/chain/src/testing/fixtures/ckb-mainnet-tx-79238be9.json.
const RFC_FULL = 'ckb1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqxwquc4';
const RFC_SHORT = 'ckb1qyqt8xaupvm8837nv3gtc9x0ekkj64vud3jqfwyw5v';
const RFC_MULTISIG_SHORT = 'ckb1qyq5lv479ewscx3ms620sv34pgeuz6zagaaqklhtgg';
const RFC_DEPRECATED_FULL =
  'ckb1qjda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xw3vumhs9nvu786dj9p0q5elx66t24n3kxgj53qks';
const REAL_INPUT = 'ckb1qyqz67uumxel602l5t6zqf7qhqt6untg9z9qukhlha';

describe('payoutLock', () => {
  it('pays the sighash-all lock of a full or short mainnet address', () => {
    const expected = {
      code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
      hash_type: 'type',
      args: '0xb39bbc0b3673c7d36450bc14cfcdad2d559c6c64',
    };
    expect(payoutLock(RFC_FULL, 'ckb')).toEqual(expected);
    expect(payoutLock(RFC_SHORT, 'ckb')).toEqual(expected);
    expect(payoutLock(REAL_INPUT, 'ckb').args).toBe('0x2d7b9cd9b3fd3d5fa2f42027c0b817ae4d68288a');
  });

  it('refuses another network, another lock and the deprecated full format, saying why', () => {
    expect(() => payoutLock(RFC_FULL, 'ckt')).toThrow(/a mainnet address, this wallet pays on testnet/);
    expect(() => payoutLock(RFC_MULTISIG_SHORT, 'ckb')).toThrow(/another script than secp256k1-blake160/);
    expect(() => payoutLock(RFC_DEPRECATED_FULL, 'ckb')).toThrow(/deprecated full-format/);
    expect(() => payoutLock(`${RFC_FULL.slice(0, -1)}q`, 'ckb')).toThrow(/checksum/);
  });
});
