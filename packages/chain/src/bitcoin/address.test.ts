import { describe, expect, it } from 'vitest';
import {
  addressToScript,
  bech32Decode,
  decodeSegwitAddress,
  encodeSegwitAddress,
  InvalidAddressError,
  p2pkhAddress,
} from './address.js';
import { NETWORKS } from './networks.js';

describe('BIP350 test vectors', () => {
  // bitcoin/bips bip-0350.mediawiki, "Test vectors for v0-v16 native segregated witness addresses".
  const valid: [string, string][] = [
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
    [
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
    ],
    [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      '5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6',
    ],
    ['BC1SW50QGDZ25J', '6002751e'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', '5210751e76e8199196d454941c45d1b3a323'],
    [
      'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
      '0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
    ],
    [
      'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
      '5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
    ],
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
    ],
  ];
  it.each(valid)('%s → %s', (address, script) => {
    const network = address.toLowerCase().startsWith('bc1') ? NETWORKS.bitcoin : NETWORKS['bitcoin-testnet'];
    expect(addressToScript(address, network).toString('hex')).toBe(script);
  });

  const invalid: [string, string][] = [
    ['tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', 'invalid human-readable part'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'Bech32 instead of Bech32m'],
    ['tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', 'Bech32 instead of Bech32m'],
    ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'Bech32 instead of Bech32m'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'Bech32m instead of Bech32'],
    ['tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', 'Bech32m instead of Bech32'],
    ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', 'invalid character in checksum'],
    ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'invalid witness version'],
    ['bc1pw5dgrnzv', 'program length 1'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', 'program length 41'],
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'v0 program length 16'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'mixed case'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'zero padding of more than 4 bits'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'non-zero padding'],
    ['bc1gmk9yu', 'empty data section'],
  ];
  it.each(invalid)('refuses %s (%s)', (address) => {
    const hrp = address.toLowerCase().startsWith('tb') ? 'tb' : 'bc';
    expect(() => decodeSegwitAddress(hrp, address)).toThrow();
    const network = hrp === 'tb' ? NETWORKS['bitcoin-testnet'] : NETWORKS.bitcoin;
    expect(() => addressToScript(address, network)).toThrow(InvalidAddressError);
  });

  it('checks Bech32m strings from BIP350', () => {
    expect(bech32Decode('A1LQFN3A')).toMatchObject({ hrp: 'a', variant: 'bech32m' });
    expect(bech32Decode('abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx').variant).toBe('bech32m');
    expect(() => bech32Decode('M1VUXWEZ')).toThrow(); // checksum computed with the uppercase HRP
    expect(() => bech32Decode('1qyrz8wqd2c9m')).toThrow(); // empty HRP
  });
});

describe('Bitcoin addresses (bitcoin/bitcoin src/test/data/key_io_valid.json)', () => {
  it.each([
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'bitcoin', '76a914a31c06bd463e3923bc1aadbde48b16976c08071788ac'],
    ['36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'bitcoin', 'a914373b819a068f32b7a6b38b6b38729647cfde01c287'],
    ['bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', 'bitcoin', '00146100fc6343edc8c874496cb2f5bbfec88ea9b77c'],
    [
      'bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu',
      'bitcoin',
      '51203c671ef1e3913f94980a9e146ba895908550ef4234abb7503d436521aba54c75',
    ],
    ['mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ', 'bitcoin-testnet', '76a914ce28b26c57472737f5c3561a1761185bd8589a4388ac'],
    ['2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK', 'bitcoin-testnet', 'a914ce0bba75891ff9ec60148d4bd4a09ee2dc5c933187'],
    ['n4fajahJrAuKbN7uNsKjLjQkz9Qn5ewJXQ', 'bitcoin-regtest', '76a914fdeca3b08e38af53d7c4c60e3ad208ce5066441088ac'],
    ['2MxFajLApXpYk4VodBSZSt7rw8y4ryABkfA', 'bitcoin-regtest', 'a91436e9f191e0b75036a77f65e2eaa4752443233fbe87'],
    ['bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9', 'bitcoin-regtest', '00146f58bac9506f9bfb821d62e69330410bb56f0085'],
    [
      'bcrt1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkq3553uh',
      'bitcoin-regtest',
      '51204b8d20316baaf061adbfe72c9d914d678cd5004d49356ec9949ba752777171ac',
    ],
  ] as const)('%s on %s', (address, network, script) => {
    expect(addressToScript(address, NETWORKS[network]).toString('hex')).toBe(script);
  });
});

describe('Litecoin addresses', () => {
  // Base58: litecoin-project/litecoin src/test/data/key_io_valid.json (version bytes 48 / 50 / 5 on
  // main, 111 / 58 / 196 on test and regtest, per src/chainparams.cpp).
  it.each([
    ['LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', 'litecoin', '76a914558dbca7118cd5894502767c7b2ffc21a22f54db88ac'],
    ['MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2', 'litecoin', 'a9146d328a5b2a20d943a641c8d29b6cc3c2d2df85d387'],
    ['M9dw1FAoWpHC6PcMzoCHhqQ9McvTyG5Ywj', 'litecoin', 'a914130ef8742ad7492b389509252c6721775fb1127387'],
    ['mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs', 'litecoin-testnet', '76a914afa9e672141e283dfbcc1cf28f3793a856d3878488ac'],
    ['QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z', 'litecoin-testnet', 'a9147860667e60a6545e18e541984094b29c9c46991b87'],
    ['mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP', 'litecoin-regtest', '76a91462b790654f809d32202587c6a43456ffc1965d8388ac'],
    ['QgDNrG4nJpE4VV7PcFMFhkTgwAHWxWS7pj', 'litecoin-regtest', 'a914d71bee7a1395c10c9ca9a7f53ac086b53e74369d87'],
    // Legacy "3…" P2SH, still accepted by Litecoin (SCRIPT_ADDRESS = 5).
    ['36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'litecoin', 'a914373b819a068f32b7a6b38b6b38729647cfde01c287'],
    // Native segwit on mainnet (as `litecoin-cli decodescript` reports them).
    [
      'ltc1q0f6a3yqs93fqnm3j2qwzc2u33gsmfchwaw8mhqg5u8wxlq8xuw2sf23r8m',
      'litecoin',
      '00207a75d890102c5209ee32501c2c2b918a21b4e2eeeb8fbb8114e1dc6f80e6e395',
    ],
    ['ltc1qax9p7dc6rvmvlq7776qvzcz7jtdj24266man39', 'litecoin', '0014e98a1f371a1b36cf83def680c1605e92db25555a'],
  ] as const)('%s on %s', (address, network, script) => {
    expect(addressToScript(address, NETWORKS[network]).toString('hex')).toBe(script);
  });

  it('round-trips regtest bech32 (rltc) and refuses other networks', () => {
    const program = Buffer.from('751e76e8199196d454941c45d1b3a323f1433bd6', 'hex');
    const address = encodeSegwitAddress('rltc', 0, program);
    expect(address.startsWith('rltc1q')).toBe(true);
    expect(addressToScript(address, NETWORKS['litecoin-regtest']).toString('hex')).toBe(
      `0014${program.toString('hex')}`,
    );
    expect(() => addressToScript(address, NETWORKS.litecoin)).toThrow(InvalidAddressError);
    expect(() => addressToScript('LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', NETWORKS.bitcoin)).toThrow(/bitcoin network/);
  });

  it('refuses MWEB addresses, which cannot receive a coinbase', () => {
    const mweb =
      'tmweb1qqvxg3qn2hy7zrmn0t43u4muahnmu36hh3ce39hvvgkg9fr4e9k7ezq4as59dm4pc8qn4vq8ntkehsj3g7jjqvlgqk9s9rudckmz4ygn9fcxratl3';
    expect(() => addressToScript(mweb, NETWORKS['litecoin-regtest'])).toThrow(/MWEB/);
  });

  it('refuses typos: a changed character breaks the checksum', () => {
    expect(() => addressToScript('LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeB', NETWORKS.litecoin)).toThrow(/checksum/);
    expect(() => addressToScript('ltc1qax9p7dc6rvmvlq7776qvzcz7jtdj24266man38', NETWORKS.litecoin)).toThrow(/checksum/);
  });

  it('encodes P2PKH for a network', () => {
    const hash = Buffer.from('558dbca7118cd5894502767c7b2ffc21a22f54db', 'hex');
    expect(p2pkhAddress(hash, NETWORKS.litecoin)).toBe('LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA');
  });
});
