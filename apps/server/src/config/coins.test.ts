import { describe, expect, it } from 'vitest';
import { ckbPayoutLock } from '../chains/ckb/settings.js';
import { ConfigError, parseConfig } from './config.js';

/** The problems a COINS value (JSON, as in the environment) gives, or the parsed coins. */
function coins(value: unknown): { problems: string[] } | { coins: ReturnType<typeof parseConfig>['coins'] } {
  try {
    return { coins: parseConfig({ COINS: JSON.stringify(value) }).coins };
  } catch (error) {
    if (error instanceof ConfigError) return { problems: error.problems };
    throw error;
  }
}

const LOCK = {
  code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
  hash_type: 'type' as const,
  args: '0xc8328aabcd9b9e8e64fbc566c4385c3bdeb219d7',
};
const CKB = { algorithm: 'eaglesong', nodes: ['http://127.0.0.1:8114'], payout_lock: LOCK };
// RFC 0021's full-format address of a secp256k1-blake160 lock (nervosnetwork/rfcs rfcs/0021-ckb-address-format).
const CKB_ADDRESS = 'ckb1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqxwquc4';
// rusty-kaspa's own vector for 32 zero bytes on mainnet (crypto/addresses/src/lib.rs tests).
const KAS_ADDRESS = 'kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e';
const KAS = { algorithm: 'kheavyhash', nodes: ['ws://127.0.0.1:18110'], pay_address: KAS_ADDRESS };
const KEY = 'f880a433d6e2a13a32b6169030f56245efdd8c1b8a5027e9ce98a88e886bef27';
const KDA = {
  algorithm: 'blake2s',
  nodes: ['http://127.0.0.1:1848'],
  chainweb_version: 'mainnet01',
  miner: { account: `k:${KEY}`, public_keys: [KEY] },
};

describe('COINS: CKB, Kaspa and Kadena nodes', () => {
  it('reads one coin of each with its defaults filled in', () => {
    expect(coins([CKB, KAS, KDA])).toEqual({
      coins: [
        { ticker: 'CKB', ...CKB, poll_interval_ms: 1000 },
        { ticker: 'KAS', ...KAS, extra_data: '/lodestone/', poll_interval_ms: 1000 },
        { ticker: 'KDA', ...KDA, miner: { ...KDA.miner, predicate: 'keys-all' } },
      ],
    });
  });

  it('takes the CKB lock as an address too', () => {
    const config = parseConfig({
      COINS: JSON.stringify([{ algorithm: 'eaglesong', nodes: CKB.nodes, payout_address: CKB_ADDRESS }]),
    });
    const [coin] = config.coins;
    if (coin?.algorithm !== 'eaglesong') throw new Error('not CKB');
    expect(ckbPayoutLock(coin)).toEqual({ ...LOCK, args: '0xb39bbc0b3673c7d36450bc14cfcdad2d559c6c64' });
    expect(ckbPayoutLock({ payout_lock: LOCK })).toBe(LOCK);
  });

  it('keeps the bitcoin-family entry as it was', () => {
    const ltc = { ticker: 'LTC', algorithm: 'scrypt', daemons: ['http://u:p@127.0.0.1:9332'], pool_address: 'ltc1q' };
    expect(coins([ltc, CKB])).toMatchObject({ coins: [{ ticker: 'LTC', rules: ['segwit'] }, { ticker: 'CKB' }] });
  });

  it.each([
    [
      'an unknown algorithm',
      [{ ...CKB, algorithm: 'ethash' }],
      /^COINS: expected algorithm scrypt, sha256, .*\(at 0\.algorithm\)/,
    ],
    ['another ticker for CKB', [{ ...CKB, ticker: 'BTC' }], /^COINS: expected the ticker CKB \(at 0\.ticker\)/],
    ['no CKB node', [{ ...CKB, nodes: [] }], /^COINS: at least one node URL \(at 0\.nodes\)/],
    [
      'a CKB node that is not http',
      [{ ...CKB, nodes: ['ws://127.0.0.1:8114'] }],
      /unsupported scheme 'ws:'; expected the node JSON-RPC URL.*\(at 0\.nodes\.0\)/,
    ],
    [
      'no payout lock',
      [{ algorithm: 'eaglesong', nodes: CKB.nodes }],
      /expected either payout_lock or payout_address .*\(at 0\.payout_lock\)/,
    ],
    [
      'both a lock and an address',
      [{ ...CKB, payout_address: CKB_ADDRESS }],
      /expected either payout_lock or payout_address/,
    ],
    [
      'a bad CKB address',
      [{ algorithm: 'eaglesong', nodes: CKB.nodes, payout_address: `${CKB_ADDRESS}x` }],
      /not a CKB address: .*\(at 0\.payout_address\)/,
    ],
    [
      'a short code hash',
      [{ ...CKB, payout_lock: { ...LOCK, code_hash: '0x9bd7' } }],
      /expected 0x and 64 hex digits \(at 0\.payout_lock\.code_hash\)/,
    ],
    [
      'an unknown hash type',
      [{ ...CKB, payout_lock: { ...LOCK, hash_type: 'data3' } }],
      /expected data, type, data1 or data2 \(at 0\.payout_lock\.hash_type\)/,
    ],
    [
      'odd args',
      [{ ...CKB, payout_lock: { ...LOCK, args: '0xabc' } }],
      /expected 0x and whole bytes of hex \(at 0\.payout_lock\.args\)/,
    ],
    [
      'a kaspad URL over http',
      [{ ...KAS, nodes: ['http://127.0.0.1:18110'] }],
      /expected a kaspad wRPC JSON URL.*\(at 0\.nodes\.0\)/,
    ],
    [
      'a Kaspa address with a bad checksum',
      [{ ...KAS, pay_address: `${KAS_ADDRESS.slice(0, -1)}f` }],
      /not a Kaspa address: .*\(at 0\.pay_address\)/,
    ],
    ['a bitcoin address for Kaspa', [{ ...KAS, pay_address: 'bc1qexample' }], /not a Kaspa address/],
    [
      'an unknown chainweb version',
      [{ ...KDA, chainweb_version: 'mainnet02' }],
      /expected mainnet01, testnet04 or development \(at 0\.chainweb_version\)/,
    ],
    [
      'a miner without keys',
      [{ ...KDA, miner: { account: `k:${KEY}`, public_keys: [] } }],
      /at least one public key \(at 0\.miner\.public_keys\)/,
    ],
    [
      'a malformed public key',
      [{ ...KDA, miner: { account: `k:${KEY}`, public_keys: ['XYZ'] } }],
      /expected 64 lower-case hex digits \(at 0\.miner\.public_keys\.0\)/,
    ],
    ['a setting of another coin', [{ ...KDA, pay_address: KAS_ADDRESS }], /pay_address/],
    [
      'two Kaspa coins',
      [KAS, { ...KAS, nodes: ['ws://10.0.0.2:18110'] }],
      /^COINS: KAS and KAS are both mined with kheavyhash; one coin per algorithm$/,
    ],
  ])('refuses %s with a message naming the field', (_case, value, message) => {
    const result = coins(value);
    expect(result).toHaveProperty('problems');
    const { problems } = result as { problems: string[] };
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('takes stratum listeners of every algorithm', () => {
    const listeners = ['eaglesong', 'kheavyhash', 'blake2s'].map((algorithm, i) => ({ algorithm, port: 4000 + i }));
    const config = parseConfig({ STRATUM_LISTENERS: JSON.stringify(listeners) });
    expect(config.stratumListeners.map((l) => l.algorithm)).toEqual(['eaglesong', 'kheavyhash', 'blake2s']);
  });
});

describe('COINS: merged mining on SCRYPT', () => {
  const LTC = {
    ticker: 'LTC',
    algorithm: 'scrypt',
    daemons: ['http://u:p@127.0.0.1:9332/'],
    pool_address: 'ltc1qpool',
    rules: ['mweb', 'segwit'],
  };
  const DOGE = { ticker: 'DOGE', chain_id: 98, daemons: ['http://u:p@127.0.0.1:22555/'], pool_address: 'DPool' };
  const BELLS = { ticker: 'BELLS', chain_id: 16, daemons: ['http://u:p@127.0.0.1:8332/'], pool_address: 'BPool' };

  it('reads merged coins with their defaults, none by default', () => {
    const parsed = coins([{ ...LTC, merged: [DOGE, BELLS] }]);
    expect(parsed).toMatchObject({
      coins: [
        {
          ticker: 'LTC',
          merged: [
            { ...DOGE, poll_interval_ms: 1000, coinbase_maturity: 240 },
            { ...BELLS, poll_interval_ms: 1000, coinbase_maturity: 30 },
          ],
        },
      ],
    });
    expect(coins([LTC])).toMatchObject({ coins: [{ ticker: 'LTC', merged: [] }] });
    const other = { ...DOGE, ticker: 'XMY', chain_id: 90 };
    expect(coins([{ ...LTC, merged: [other, { ...BELLS, coinbase_maturity: 5 }] }])).toMatchObject({
      coins: [{ merged: [{ coinbase_maturity: 100 }, { coinbase_maturity: 5 }] }],
    });
  });

  it.each([
    [
      'a chain id clash',
      [{ ...LTC, merged: [DOGE, { ...BELLS, chain_id: 98 }] }],
      /BELLS and DOGE both have chain id 98/,
    ],
    ['a merged coin twice', [{ ...LTC, merged: [DOGE, { ...DOGE, chain_id: 99 }] }], /DOGE is mined twice/],
    ['the parent as its own aux chain', [{ ...LTC, merged: [{ ...DOGE, ticker: 'LTC' }] }], /LTC is mined twice/],
    [
      'merged mining off SCRYPT',
      [{ ...LTC, algorithm: 'sha256', merged: [DOGE] }],
      /merged mining is for SCRYPT coins/,
    ],
    ['a pool tag over 20 bytes', [{ ...LTC, pool_tag: '/矿池矿池矿池矿池/' }], /at most 20 bytes of UTF-8.*pool_tag/],
    ['a chain id out of range', [{ ...LTC, merged: [{ ...DOGE, chain_id: 70_000 }] }], /chain_id/],
    [
      'a merged coin mined elsewhere',
      [
        { ...LTC, merged: [DOGE] },
        { ...LTC, ticker: 'DOGE', algorithm: 'x11', merged: [] },
      ],
      /DOGE, merge-mined with LTC, is mined elsewhere too/,
    ],
  ])('refuses %s', (_what, value, message) => {
    const result = coins(value);
    expect(result).toHaveProperty('problems');
    expect((result as { problems: string[] }).problems.join('\n')).toMatch(message);
  });
});
