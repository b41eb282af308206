import { CkbJobSource, DaemonJobSource, DemoJobSource, KadenaJobSource, KaspaJobSource } from '@lodestone/chain';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config/config.js';
import { DemoChainSource } from './demo/demoChains.js';
import { createStratumWork, demoAlgorithms, fleetMines, servedAlgorithms } from './network.js';

const QUIET = { info() {}, warn() {}, error() {} };
const KEY = 'f880a433d6e2a13a32b6169030f56245efdd8c1b8a5027e9ce98a88e886bef27';
const COINS = [
  { ticker: 'LTC', algorithm: 'scrypt', daemons: ['http://u:p@127.0.0.1:9332'], pool_address: 'ltc1q' },
  {
    algorithm: 'eaglesong',
    nodes: ['http://127.0.0.1:8114'],
    payout_lock: {
      code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
      hash_type: 'type',
      args: '0xc8328aabcd9b9e8e64fbc566c4385c3bdeb219d7',
    },
  },
  {
    algorithm: 'kheavyhash',
    nodes: ['ws://127.0.0.1:18110'],
    pay_address: 'kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e',
  },
  {
    algorithm: 'blake2s',
    nodes: ['http://127.0.0.1:1848'],
    chainweb_version: 'mainnet01',
    miner: { account: `k:${KEY}`, public_keys: [KEY] },
  },
];

describe('createStratumWork', () => {
  it('serves all six algorithms from the demo network by default', () => {
    const config = parseConfig({});
    expect(servedAlgorithms(config)).toEqual(['scrypt', 'sha256', 'x11', 'eaglesong', 'blake2s', 'kheavyhash']);
    const sources = createStratumWork(config, QUIET).map((w) => w.source);
    expect(sources.map((s) => [s.algorithm, s.demo, s.constructor.name])).toEqual([
      ['scrypt', true, DemoJobSource.name],
      ['sha256', true, DemoJobSource.name],
      ['x11', true, DemoJobSource.name],
      ['eaglesong', true, DemoChainSource.name],
      ['blake2s', true, DemoChainSource.name],
      ['kheavyhash', true, DemoChainSource.name],
    ]);
  });

  it('gives each configured coin its own job source, and the demo network the rest', () => {
    const config = parseConfig({ COINS: JSON.stringify(COINS) });
    expect(demoAlgorithms(config)).toEqual(['sha256', 'x11']);
    const byAlgorithm = new Map(
      createStratumWork(config, QUIET)
        .map((w) => w.source)
        .map((s) => [s.algorithm, s]),
    );
    expect(byAlgorithm.get('scrypt')).toBeInstanceOf(DaemonJobSource);
    expect(byAlgorithm.get('eaglesong')).toBeInstanceOf(CkbJobSource);
    expect(byAlgorithm.get('kheavyhash')).toBeInstanceOf(KaspaJobSource);
    expect(byAlgorithm.get('blake2s')).toBeInstanceOf(KadenaJobSource);
    expect(byAlgorithm.get('sha256')).toBeInstanceOf(DemoJobSource);
    expect([...byAlgorithm].map(([algorithm, s]) => [algorithm, s.demo])).toEqual([
      ['scrypt', false],
      ['sha256', true],
      ['x11', true],
      ['eaglesong', false],
      ['blake2s', false],
      ['kheavyhash', false],
    ]);
    const kaspa = byAlgorithm.get('kheavyhash');
    if (!(kaspa instanceof KaspaJobSource)) throw new Error('not a Kaspa source');
    expect(kaspa.coin).toBe('KAS');
    // The pay address is the pool's: version 0, a Schnorr key of 32 zero bytes, OP_CHECKSIG.
    expect(kaspa.payScript).toBe(`000020${'00'.repeat(32)}ac`);
    const kadena = byAlgorithm.get('blake2s');
    if (!(kadena instanceof KadenaJobSource)) throw new Error('not a Kadena source');
    expect(kadena.clients.map((c) => c.name)).toEqual(['http://127.0.0.1:1848']);
  });

  it('sizes each demo chain’s target to the fleet that mines it', () => {
    const few = createStratumWork(parseConfig({ DEMO_WORKERS: '6' }), QUIET).map((w) => w.source);
    expect(few.filter((s) => fleetMines(s.algorithm)).length).toBeGreaterThan(0);
    const many = createStratumWork(parseConfig({ DEMO_WORKERS: '60' }), QUIET).map((w) => w.source);
    for (const [i, source] of few.entries()) {
      if (!fleetMines(source.algorithm)) continue;
      const other = many[i];
      if (!(source instanceof DemoJobSource || source instanceof DemoChainSource)) throw new Error('not a demo source');
      if (!(other instanceof DemoJobSource || other instanceof DemoChainSource)) throw new Error('not a demo source');
      // Ten times the workers: about ten times the hashes per block, a target about ten times smaller.
      const ratio = Number(source.networkTarget / other.networkTarget);
      expect(ratio, source.algorithm).toBeGreaterThan(5);
      expect(ratio, source.algorithm).toBeLessThan(20);
    }
  });
});
