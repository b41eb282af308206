import { describe, expect, it } from 'vitest';
import type { PayoutNetwork } from './checker.js';
import { decodeCkbAddress } from './ckb.js';
import { ADDRESS_FORMATS, type AddressFormat, validatePayoutAddress } from './validateAddress.js';

/**
 * Vectors are quoted from public references named next to them. Where a coin publishes none for a case,
 * the vector is marked "constructed": encoded here with the project's own base58check / bech32 encoders
 * (or, for CashAddr-style strings, a separate encoder written from the CashAddr spec) from a known hash
 * and the version byte / HRP / prefix of the coin's chainparams, then pasted in as a literal.
 */
type Valid = readonly [address: string, network: PayoutNetwork, source: string];
type Invalid = readonly [address: string, network: PayoutNetwork, reason: RegExp, source: string];

function expectValid(format: AddressFormat, vectors: readonly Valid[]) {
  it.each(vectors)('accepts %s on %s (%s)', (address, network) => {
    expect(validatePayoutAddress(format, address, network)).toEqual({ ok: true });
  });
}

function expectInvalid(format: AddressFormat, vectors: readonly Invalid[]) {
  it.each(vectors)('refuses %s on %s: %s (%s)', (address, network, reason) => {
    const result = validatePayoutAddress(format, address, network);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });
}

const WRONG_NET = (net: string) => new RegExp(`${net} address; payouts are made on`);

describe('bitcoin', () => {
  expectValid('bitcoin', [
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'mainnet', 'bitcoin/bitcoin src/test/data/key_io_valid.json'],
    ['36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'mainnet', 'key_io_valid.json'],
    ['bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', 'mainnet', 'key_io_valid.json'],
    ['bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu', 'mainnet', 'key_io_valid.json (taproot)'],
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'mainnet', 'bitcoin/bips bip-0350.mediawiki (upper case)'],
    ['mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ', 'testnet', 'key_io_valid.json'],
    ['2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK', 'testnet', 'key_io_valid.json'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'testnet', 'bip-0350.mediawiki'],
    ['n4fajahJrAuKbN7uNsKjLjQkz9Qn5ewJXQ', 'regtest', 'key_io_valid.json'],
    ['bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9', 'regtest', 'key_io_valid.json'],
  ]);
  expectInvalid('bitcoin', [
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mp', 'mainnet', /checksum mismatch/, 'key_io_valid.json, last character changed'],
    [
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh',
      'mainnet',
      /must use bech32$/,
      'bip-0350: Bech32m instead of Bech32',
    ],
    ['mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ', 'mainnet', WRONG_NET('bitcoin testnet'), 'key_io_valid.json'],
    [
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      'mainnet',
      WRONG_NET('bitcoin testnet'),
      'bip-0350',
    ],
    ['bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', 'regtest', WRONG_NET('bitcoin mainnet'), 'key_io_valid.json'],
    ['1dVi8TbRE1Xb7cSVn5G4Vn74VU2SPrtx', 'mainnet', /wrong length: 20 bytes/, 'constructed: 19-byte hash'],
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'mainnet', /program length 16/, 'bip-0350: v0 program length'],
    ['BC1SW50QGDZ25J', 'mainnet', /witness version 16 .* not a spendable output/, 'bip-0350 (valid Bech32m, v16)'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'mainnet', /witness version 2/, 'bip-0350 (valid Bech32m, v2)'],
    [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      'mainnet',
      /witness version 1 with a 40-byte program/,
      'bip-0350 (valid Bech32m, v1 but not a taproot key)',
    ],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'testnet', /mixed case/, 'bip-0350'],
    ['LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', 'mainnet', /version byte 48/, 'a Litecoin address'],
    [' 1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'mainnet', /spaces/, 'untrimmed input'],
    ['', 'mainnet', /empty/, 'empty'],
    ['x'.repeat(1001), 'mainnet', /too long/, 'oversized input'],
  ]);
});

describe('litecoin', () => {
  expectValid('litecoin', [
    ['LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', 'mainnet', 'litecoin-project/litecoin src/test/data/key_io_valid.json'],
    ['MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2', 'mainnet', 'key_io_valid.json (SCRIPT_ADDRESS2, 50)'],
    ['36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'mainnet', 'legacy P2SH version 5, still accepted by chainparams'],
    [
      'ltc1qax9p7dc6rvmvlq7776qvzcz7jtdj24266man39',
      'mainnet',
      'litecoin-cli decodescript (see bitcoin/address.test.ts)',
    ],
    ['ltc1q0f6a3yqs93fqnm3j2qwzc2u33gsmfchwaw8mhqg5u8wxlq8xuw2sf23r8m', 'mainnet', 'P2WSH, same source'],
    [
      'ltc1prp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q3t8zwg',
      'mainnet',
      'constructed: v1 with a 32-byte key',
    ],
    ['mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs', 'testnet', 'key_io_valid.json'],
    ['QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z', 'testnet', 'key_io_valid.json (SCRIPT_ADDRESS2, 58)'],
    ['mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP', 'regtest', 'key_io_valid.json'],
    ['QgDNrG4nJpE4VV7PcFMFhkTgwAHWxWS7pj', 'regtest', 'key_io_valid.json'],
  ]);
  const mweb =
    'tmweb1qqvxg3qn2hy7zrmn0t43u4muahnmu36hh3ce39hvvgkg9fr4e9k7ezq4as59dm4pc8qn4vq8ntkehsj3g7jjqvlgqk9s9rudckmz4ygn9fcxratl3';
  expectInvalid('litecoin', [
    [mweb, 'regtest', /^MWEB addresses cannot receive payouts$/, 'litecoind -regtest getnewaddress mweb'],
    [mweb, 'mainnet', /^MWEB addresses cannot receive payouts$/, 'same, on another network'],
    [`ltcmweb1${mweb.slice(6)}`, 'mainnet', /^MWEB addresses cannot receive payouts$/, 'mainnet MWEB prefix'],
    ['LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeB', 'mainnet', /checksum mismatch/, 'key_io_valid.json, last character changed'],
    ['ltc1qax9p7dc6rvmvlq7776qvzcz7jtdj24266man38', 'mainnet', /checksum mismatch/, 'last character changed'],
    ['mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs', 'mainnet', WRONG_NET('litecoin testnet'), 'key_io_valid.json'],
    ['ltc1qax9p7dc6rvmvlq7776qvzcz7jtdj24266man39', 'testnet', WRONG_NET('litecoin mainnet'), 'mainnet segwit'],
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'mainnet', /version byte 0/, 'a Bitcoin address'],
    ['1dVi8TbRE1Xb7cSVn5G4Vn74VU2SPrtx', 'mainnet', /wrong length/, 'constructed: 19-byte hash'],
  ]);
});

describe('dogecoin', () => {
  expectValid('dogecoin', [
    ['DD4KSSuBJqcjuTcvUg1CgUKeurPUFeEZkE', 'mainnet', 'dogecoin/dogecoin src/test/data/base58_keys_valid.json'],
    ['A7HRQk3GFCW2QasvdZxXuYj8kkQK5QrYLs', 'mainnet', 'base58_keys_valid.json (script)'],
    ['nhRsrUaxZou6sewjqaS37cJrMRJRgwVXdk', 'testnet', 'base58_keys_valid.json'],
    ['2MsvyG12kxxipe276Au4zKqvd2xdrBuHWb3', 'testnet', 'base58_keys_valid.json (script)'],
    ['nesRpRaAbTDmZHwmzBkLd2AtF7Z9L9z5S2', 'regtest', 'constructed: version 113 (chainparams.cpp CRegTestParams)'],
    ['mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r', 'regtest', 'constructed: version 111'],
    ['2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf', 'regtest', 'constructed: version 196'],
  ]);
  expectInvalid('dogecoin', [
    ['DD4KSSuBJqcjuTcvUg1CgUKeurPUFeEZkF', 'mainnet', /checksum mismatch/, 'base58_keys_valid.json, changed'],
    ['nhRsrUaxZou6sewjqaS37cJrMRJRgwVXdk', 'mainnet', WRONG_NET('dogecoin testnet'), 'base58_keys_valid.json'],
    ['DD4KSSuBJqcjuTcvUg1CgUKeurPUFeEZkE', 'testnet', WRONG_NET('dogecoin mainnet'), 'base58_keys_valid.json'],
    ['bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', 'mainnet', /invalid base58 character/, 'no segwit on Dogecoin'],
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'mainnet', /version byte 0/, 'a Bitcoin address'],
    ['1dVi8TbRE1Xb7cSVn5G4Vn74VU2SPrtx', 'mainnet', /wrong length/, 'constructed: 19-byte hash'],
  ]);
});

describe('digibyte', () => {
  expectValid('digibyte', [
    ['DBLsEv4FdFPGrMWzcagDQvoKgUL2CikhMf', 'mainnet', 'renproject/multichain chain/digibyte/address_test.go'],
    ['SXyGazfm6S3xfcySmD6QNkZYmtfysC2jvc', 'mainnet', 'constructed: SCRIPT_ADDRESS 63 (DigiByte-Core chainparams.cpp)'],
    ['3CNHUhP3uyB9EUtRLsmvFUmvGdjGdkTxJw', 'mainnet', 'constructed: SCRIPT_ADDRESS_OLD 5'],
    ['dgb1qw508d6qejxtdg4y5r3zarvary0c5xw7kmudfnm', 'mainnet', 'constructed: HRP dgb, BIP173 program'],
    ['stGGcqSupoFABvkuJe5Uvei7RfuQZbHqrK', 'testnet', 'constructed: version 126'],
    ['dgbt1qw508d6qejxtdg4y5r3zarvary0c5xw7kwk83wk', 'testnet', 'constructed: HRP dgbt'],
    ['dgbrt1qw508d6qejxtdg4y5r3zarvary0c5xw7k2875s5', 'regtest', 'constructed: HRP dgbrt'],
  ]);
  expectInvalid('digibyte', [
    ['DBLsEv4FdFPGrMWzcagDQvoKgUL2CikhMe', 'mainnet', /checksum mismatch/, 'multichain vector, changed'],
    ['dgb1qw508d6qejxtdg4y5r3zarvary0c5xw7kmudfnn', 'mainnet', /checksum mismatch/, 'constructed, changed'],
    ['dgbt1qw508d6qejxtdg4y5r3zarvary0c5xw7kwk83wk', 'mainnet', WRONG_NET('digibyte testnet'), 'constructed'],
    ['stGGcqSupoFABvkuJe5Uvei7RfuQZbHqrK', 'mainnet', WRONG_NET('digibyte testnet'), 'constructed'],
    [
      'dgb1prp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q09dstj',
      'mainnet',
      /taproot addresses are not accepted/,
      'constructed: v1 (activation on DigiByte unconfirmed)',
    ],
    ['1dVi8TbRE1Xb7cSVn5G4Vn74VU2SPrtx', 'mainnet', /wrong length/, 'constructed: 19-byte hash'],
  ]);

  it('cannot tell a DigiByte P2PKH address from a Dogecoin one: both use version byte 30', () => {
    expect(validatePayoutAddress('dogecoin', 'DBLsEv4FdFPGrMWzcagDQvoKgUL2CikhMf')).toEqual({ ok: true });
  });
});

describe('dash', () => {
  expectValid('dash', [
    ['Xw7HTXGY3TFeA3ZsVuMRrYh96GtwWb4hQb', 'mainnet', 'trustwallet/wallet-core DashAddressTests'],
    ['7d5vJtfDixGnEFRNcVSRarmaCBZeScHACn', 'mainnet', 'constructed: SCRIPT_ADDRESS 16'],
    ['yMfdoASh4QEM3zVpZqgXJ8St38X7VWnzp7', 'testnet', 'tangem blockchain-sdk DashAddressTest'],
    ['8q6jGDZ5rVfQgYqdgkSP3Eaw5hLUXD8Nyi', 'testnet', 'constructed: testnet SCRIPT_ADDRESS 19'],
    ['yMfdoASh4QEM3zVpZqgXJ8St38X7VWnzp7', 'regtest', 'regtest shares the testnet bytes'],
  ]);
  expectInvalid('dash', [
    ['Xw7HTXGY3TFeA3ZsVuMRrYh96GtwWb4hQc', 'mainnet', /checksum mismatch/, 'wallet-core vector, changed'],
    ['yMfdoASh4QEM3zVpZqgXJ8St38X7VWnzp7', 'mainnet', WRONG_NET('dash testnet'), 'tangem vector'],
    ['Xw7HTXGY3TFeA3ZsVuMRrYh96GtwWb4hQb', 'testnet', WRONG_NET('dash mainnet'), 'wallet-core vector'],
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'mainnet', /version byte 0/, 'a Bitcoin address'],
    ['1dVi8TbRE1Xb7cSVn5G4Vn74VU2SPrtx', 'mainnet', /wrong length/, 'constructed: 19-byte hash'],
  ]);
});

describe('bells', () => {
  // No published address vectors found; all constructed from Nintondo/bellscoinV3
  // src/kernel/chainparams.cpp (main 25 / 30 / "bel", test 33 / 22 / "tbel").
  expectValid('bells', [
    ['BF8MAsLp7aSfb9g9qGSHwzDerit8nAZAJX', 'mainnet', 'constructed: version 25'],
    ['DFpN6QqFfUm3gKNaxN6tNcab1FArL9cZLE', 'mainnet', 'constructed: version 30'],
    ['bel1qw508d6qejxtdg4y5r3zarvary0c5xw7kztdea9', 'mainnet', 'constructed: HRP bel'],
    ['bel1prp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qx3ztz3', 'mainnet', 'constructed: taproot'],
    ['ETqB3jj7o29g8cnr2d6qpzPwtkwgTuXt3Q', 'testnet', 'constructed: version 33'],
    ['A37YDYSwz3438rFtm1SLVcQHyD7JeueC9H', 'testnet', 'constructed: version 22'],
    ['tbel1qw508d6qejxtdg4y5r3zarvary0c5xw7k4ewsw0', 'testnet', 'constructed: HRP tbel'],
  ]);
  expectInvalid('bells', [
    ['BF8MAsLp7aSfb9g9qGSHwzDerit8nAZAJY', 'mainnet', /checksum mismatch/, 'constructed, changed'],
    ['tbel1qw508d6qejxtdg4y5r3zarvary0c5xw7k4ewsw0', 'mainnet', WRONG_NET('bells testnet'), 'constructed'],
    ['bel1qw508d6qejxtdg4y5r3zarvary0c5xw7kztdea9', 'testnet', WRONG_NET('bells mainnet'), 'constructed'],
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'mainnet', /version byte 0/, 'a Bitcoin address'],
    ['1dVi8TbRE1Xb7cSVn5G4Vn74VU2SPrtx', 'mainnet', /wrong length/, 'constructed: 19-byte hash'],
  ]);
});

describe('bitcoincash', () => {
  // bitcoincashorg/bitcoincash.org spec/cashaddr.md, "Examples of address translation" and "Larger test vectors".
  expectValid('bitcoincash', [
    ['bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', 'mainnet', 'cashaddr.md'],
    ['qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', 'mainnet', 'cashaddr.md, prefix omitted'],
    ['BITCOINCASH:QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A', 'mainnet', 'cashaddr.md, upper case'],
    ['bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq', 'mainnet', 'cashaddr.md (P2SH)'],
    ['1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', 'mainnet', 'cashaddr.md (legacy form)'],
    ['3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC', 'mainnet', 'cashaddr.md (legacy P2SH)'],
    ['bitcoincash:qr6m7j9njldwwzlg9v7v53unlr4jkmx6eylep8ekg2', 'mainnet', 'cashaddr.md larger vectors, 20 bytes'],
    ['bitcoincash:zpm2qsznhks23z7629mms6s4cwef74vcwvrqekrq9w', 'mainnet', 'CashTokens token-aware P2PKH'],
    ['bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t', 'testnet', 'cashaddr.md larger vectors'],
    [
      'bchtest:pvch8mmxy0rtfrlarg7ucrxxfzds5pamg73h7370aa87d80gyhqxq7fqng6m6',
      'testnet',
      'cashaddr.md larger vectors, 32-byte P2SH (P2SH32)',
    ],
    ['mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ', 'testnet', 'legacy testnet form (bitcoin key_io_valid.json)'],
  ]);
  expectInvalid('bitcoincash', [
    ['bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6c', 'mainnet', /checksum mismatch/, 'cashaddr.md, changed'],
    ['qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6c', 'mainnet', /checksum mismatch/, 'changed, no prefix'],
    ['bitcoincash:qpm2QSZNhks23z7629mms6s4cwef74vcwvy22gdx6a', 'mainnet', /mixed/, 'cashaddr.md: mixed case'],
    ['bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t', 'mainnet', WRONG_NET('bitcoincash testnet'), 'cashaddr.md'],
    ['pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t', 'mainnet', WRONG_NET('bitcoincash testnet'), 'no prefix'],
    ['pref:pr6m7j9njldwwzlg9v7v53unlr4jkmx6ey65nvtks5', 'mainnet', /prefix pref: is not bitcoincash:/, 'cashaddr.md'],
    [
      'bitcoincash:q9adhakpwzztepkpwp5z0dq62m6u5v5xtyj7j3h2ws4mr9g0',
      'mainnet',
      /24-byte P2PKH hash is not a standard output/,
      'cashaddr.md larger vectors, 24 bytes',
    ],
    [
      'bitcoincash:qvch8mmxy0rtfrlarg7ucrxxfzds5pamg73h7370aa87d80gyhqxq5nlegake',
      'mainnet',
      /32-byte P2PKH/,
      'cashaddr.md larger vectors, 32 bytes',
    ],
    [
      'bitcoincash:qpzry9x8gf2tvdw0s3jn54khce6mua7lcw20ayyn',
      'mainnet',
      /wrong length|padding|type/,
      'cashaddr.md: valid checksum, invalid payload',
    ],
    ['bitcoincash:spm2qsznhks23z7629mms6s4cwef74vcwv4glwxl5g', 'mainnet', /reserved bit/, 'constructed: 0x80 version'],
    ['1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggv', 'mainnet', /checksum mismatch/, 'legacy, changed'],
    ['bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', 'mainnet', /invalid|mismatch/, 'no segwit on Bitcoin Cash'],
  ]);
});

describe('kaspa', () => {
  // kaspanet/rusty-kaspa crypto/addresses/src/lib.rs tests (cases(), test_errors()).
  const zeros = 'kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e';
  expectValid('kaspa', [
    [zeros, 'mainnet', 'rusty-kaspa cases()'],
    ['kaspa:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyqh70xmfj', 'mainnet', 'rusty-kaspa cases()'],
    ['kaspa:qpauqsvk7yf9unexwmxsnmg547mhyga37csh0kj53q6xxgl24ydxjsgzthw5j', 'mainnet', 'rusty-kaspa wasm tests'],
    [
      'kaspa:qypyrhxkfd055qulcvu6zccq4qe63qajrzgf7t4u4uusveguw6zzc3grrceeuex',
      'mainnet',
      'tangem KaspaAddressTests (ECDSA)',
    ],
    ['kaspa:pp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyf2sm703r', 'mainnet', 'constructed: script hash'],
    [
      'kaspatest:qxaqrlzlf6wes72en3568khahq66wf27tuhfxn5nytkd8tcep2c0vrse6gdmpks',
      'testnet',
      'rusty-kaspa cases() (ECDSA)',
    ],
    ['kaspatest:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhqrxplya', 'testnet', 'rusty-kaspa cases()'],
    ['kaspasim:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jy08rw69hp', 'regtest', 'constructed: simnet'],
    ['kaspadev:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyvfmf5xu7', 'regtest', 'constructed: devnet'],
  ]);
  expectInvalid('kaspa', [
    [
      'kaspa:qqqqqqqqqqqqq1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e',
      'mainnet',
      /invalid character "1"/,
      'test_errors',
    ],
    [
      'kaspa1:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e',
      'mainnet',
      /prefix kaspa1: is not kaspa:/,
      'test_errors',
    ],
    ['kaspaqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e', 'mainnet', /missing/, 'test_errors'],
    ['kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4l', 'mainnet', /checksum/, 'test_errors'],
    ['kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e', 'mainnet', /checksum/, 'test_errors'],
    [zeros.toUpperCase(), 'mainnet', /lower case/, 'upper case'],
    [
      'kaspatest:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhqrxplya',
      'mainnet',
      WRONG_NET('kaspa testnet'),
      'rusty-kaspa cases()',
    ],
    [zeros, 'testnet', WRONG_NET('kaspa mainnet'), 'rusty-kaspa cases()'],
    ['kaspa:qp0l70zd5x85ttwd6jv7g3s3a8llzj96dy8swt8u48', 'mainnet', /wrong length: 20 bytes/, 'constructed'],
    [
      'kaspa:qf0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jy9q0zvzzq',
      'mainnet',
      /unknown address version 2/,
      'constructed',
    ],
  ]);
});

describe('ckb', () => {
  // nervosnetwork/rfcs rfcs/0021-ckb-address-format, "Examples and Demo Code".
  const full = 'ckb1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqxwquc4';
  expectValid('ckb', [
    [full, 'mainnet', 'RFC 0021 full address'],
    [full.toUpperCase(), 'mainnet', 'RFC 0021 full address, upper case'],
    ['ckb1qyqt8xaupvm8837nv3gtc9x0ekkj64vud3jqfwyw5v', 'mainnet', 'RFC 0021 deprecated short (index 0)'],
    ['ckb1qyq5lv479ewscx3ms620sv34pgeuz6zagaaqklhtgg', 'mainnet', 'RFC 0021 deprecated short (multisig)'],
    [
      'ckt1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqgutnjd',
      'testnet',
      'constructed: the RFC full payload with HRP ckt',
    ],
    ['ckt1qyqt8xaupvm8837nv3gtc9x0ekkj64vud3jq5t63cs', 'regtest', 'constructed: short with HRP ckt'],
  ]);
  expectInvalid('ckb', [
    [`${full.slice(0, -1)}5`, 'mainnet', /checksum mismatch/, 'RFC vector, changed'],
    [
      'ckb1qjda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xw3vumhs9nvu786dj9p0q5elx66t24n3kxgj53qks',
      'mainnet',
      /deprecated full-format/,
      'RFC 0021 deprecated full address',
    ],
    [full, 'testnet', WRONG_NET('ckb mainnet'), 'RFC vector'],
    [
      'ckt1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqgutnjd',
      'mainnet',
      WRONG_NET('ckb testnet'),
      'constructed',
    ],
    [
      'ckb1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqnjssah',
      'mainnet',
      /Bech32m/,
      'constructed: full payload under a Bech32 checksum',
    ],
    [
      'ckb1qyqt8xaupvm8837nv3gtc9x0ekkj64vud3jquj5z3w',
      'mainnet',
      /Bech32 checksum/,
      'constructed: short under Bech32m',
    ],
    [
      'ckb1qyqt8xaupvm8837nv3gtc9x0ekkj64vud3jqqdx7dww',
      'mainnet',
      /wrong length: 23 bytes/,
      'constructed: 21-byte args',
    ],
    ['ckb1qypm8xaupvm8837nv3gtc9x0ekkj64vud3jqnj0dq6', 'mainnet', /code hash index 3/, 'constructed'],
    [
      'ckb1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqannw7qkdnnclfkg59uzn8umtfd2kwxceqjz3ghp',
      'mainnet',
      /hash type 3/,
      'constructed',
    ],
    [`${full.slice(0, 20)}B${full.slice(21)}`, 'mainnet', /mixed/, 'mixed case'],
  ]);
});

describe('ethereum (also USDC on Ethereum)', () => {
  // ethereum/EIPs EIPS/eip-55.md test cases.
  expectValid('ethereum', [
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'mainnet', 'eip-55.md'],
    ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', 'mainnet', 'eip-55.md'],
    ['0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', 'mainnet', 'eip-55.md'],
    ['0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb', 'mainnet', 'eip-55.md'],
    ['0x52908400098527886E0F7030069857D2E4169EE7', 'mainnet', 'eip-55.md (all caps)'],
    ['0xde709f2102306220921060314715629080e2fb77', 'mainnet', 'eip-55.md (all lower)'],
    ['0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', 'testnet', 'lower case needs no checksum'],
  ]);
  expectInvalid('ethereum', [
    [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      'mainnet',
      /EIP-55 checksum mismatch/,
      'eip-55.md, one case flipped',
    ],
    [
      '0xfb6916095cA1df60bB79Ce92cE3Ea74c37c5d359',
      'mainnet',
      /EIP-55 checksum mismatch/,
      'eip-55.md, one case flipped',
    ],
    ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'mainnet', /0x/, 'no 0x'],
    ['0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'mainnet', /0x/, 'upper-case X'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'mainnet', /wrong length: 39/, 'one digit short'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd', 'mainnet', /wrong length: 41/, 'one digit long'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg', 'mainnet', /not hexadecimal/, 'not hex'],
    ['0x0000000000000000000000000000000000000000', 'mainnet', /zero address/, 'burn address'],
  ]);

  it('checks the case with Keccak-256, not SHA3-256', () => {
    // eip-55.md's first address cased by the nibbles of SHA3-256 (FIPS 202 padding) instead of
    // Keccak-256: a wallet that used the wrong hash would write this, and it is refused.
    expect(validatePayoutAddress('ethereum', '0x5aaeb6053f3E94C9b9A09f33669435E7EF1Beaed')).toEqual({
      ok: false,
      reason: 'EIP-55 checksum mismatch (wrong upper/lower case)',
    });
  });
});

describe('kadena', () => {
  // docs.kadena.io "KDA Concepts": example public key 961fd95b…3053b6; kadena-io/pact-5 Principal.hs for k:.
  const key = '961fd95b190aeb38850754fee81b42486d140e44ee78f8f2d9e25ab69c3053b6';
  expectValid('kadena', [
    [`k:${key}`, 'mainnet', 'docs.kadena.io KDA Concepts key'],
    [`k:${key}`, 'testnet', 'same format on testnet04'],
  ]);
  expectInvalid('kadena', [
    [key, 'mainnet', /only k: accounts/, 'bare key'],
    ['alice', 'mainnet', /only k: accounts/, 'named account (docs example)'],
    [`w:${key}`, 'mainnet', /only k: accounts/, 'other principal'],
    [`k:${key.toUpperCase()}`, 'mainnet', /lower case/, 'upper-case key names a different account'],
    [`k:${key.slice(1)}`, 'mainnet', /wrong length: 63/, 'one digit short'],
    [`k:${key}0`, 'mainnet', /wrong length: 65/, 'one digit long'],
    [`k:${key.slice(1)}g`, 'mainnet', /not hexadecimal/, 'not hex'],
  ]);
});

describe('solana', () => {
  expectValid('solana', [
    ['14grJpemFaf88c8tiVb77W7TYg2W3ir6pfkKz3YjhhZ5', 'mainnet', 'docs.rs solana-address 2.1.0 example'],
    ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'mainnet', 'SPL Token program id'],
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'testnet', 'USDC mint on Solana (Circle)'],
  ]);
  expectInvalid('solana', [
    ['14grJpemFaf88c8tiVb77W7TYg2W3ir6pfkKz3Yjhh', 'mainnet', /wrong length: 31 bytes/, 'docs example, shortened'],
    ['14grJpemFaf88c8tiVb77W7TYg2W3ir6pfkKz3YjhhZ5Z', 'mainnet', /wrong length: 33 bytes/, 'docs example, lengthened'],
    ['14grJpemFaf88c8tiVb77W7TYg2W3ir6pfkKz3Yjhh0O', 'mainnet', /invalid base58 character/, '0 and O are not base58'],
    ['11111111111111111111111111111111', 'mainnet', /System Program/, 'all-zero key'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'mainnet', /invalid base58/, 'an Ethereum address'],
  ]);
});

describe('validatePayoutAddress', () => {
  it('has a rule set for every format on every network, and defaults to mainnet', () => {
    for (const format of ADDRESS_FORMATS) {
      for (const network of ['mainnet', 'testnet', 'regtest'] as const) {
        expect(validatePayoutAddress(format, 'not an address', network).ok).toBe(false);
      }
    }
    expect(validatePayoutAddress('bitcoin', '1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo')).toEqual({ ok: true });
  });
});

describe('programming errors', () => {
  it('throws (rather than answering "invalid") for a format or network this build does not know', () => {
    expect(() => validatePayoutAddress('monero' as AddressFormat, '4A')).toThrow(TypeError);
    expect(() => validatePayoutAddress('bitcoin', '1A', 'signet' as PayoutNetwork)).toThrow(TypeError);
  });
});

describe('decodeCkbAddress', () => {
  // RFC 0021's example lock: secp256k1-blake160 with args 0xb39bbc0b3673c7d36450bc14cfcdad2d559c6c64.
  const LOCK = {
    code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
    hash_type: 'type',
    args: '0xb39bbc0b3673c7d36450bc14cfcdad2d559c6c64',
  };

  it.each([
    ['ckb1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqxwquc4', 'mainnet'],
    ['ckt1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqgutnjd', 'testnet'],
    ['ckb1qyqt8xaupvm8837nv3gtc9x0ekkj64vud3jqfwyw5v', 'mainnet'],
  ])('reads the lock of %s (RFC 0021)', (address, network) => {
    expect(decodeCkbAddress(address)).toEqual({ network, lock: LOCK });
  });

  it('refuses a short multisig address, a bad checksum and another coin', () => {
    expect(() => decodeCkbAddress('ckb1qyq5lv479ewscx3ms620sv34pgeuz6zagaaqklhtgg')).toThrow(/another script/);
    expect(() => decodeCkbAddress('ckb1qyqt8xaupvm8837nv3gtc9x0ekkj64vud3jqfwyw5w')).toThrow(TypeError);
    expect(() => decodeCkbAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toThrow(/not ckb1 or ckt1/);
  });
});
