/**
 * Random and malformed input on the CKB, Kaspa and Kadena ports (the bitcoin family's are in
 * robustness.api.test.ts): the server answers, keeps serving, and credits nothing. The port
 * difficulty is set so high that no nonce a fuzzer could send is a share, so any credit would be a bug.
 */
import { randomBytes } from 'node:crypto';
import { REAL_CKB_POW_BLOCK } from '@lodestone/chain/testing';
import type { AlgorithmKey } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { afterEach, describe, expect, it } from 'vitest';
import { ckbWork } from '../chains/ckb/index.js';
import { CkbFixtureSource } from '../chains/ckb/testing.js';
import { kadenaWork } from '../chains/kadena/index.js';
import { KadenaFixtureSource, kadenaFixtureJob } from '../chains/kadena/testing.js';
import { kaspaWork } from '../chains/kaspa/index.js';
import { KaspaFixtureSource } from '../chains/kaspa/testing.js';
import { type Harness, startHarness } from './testing/harness.js';
import type { StratumWork } from './work.js';

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function kadenaSource(): StratumWork {
  const source = new KadenaFixtureSource();
  let id = 0;
  source.publish(kadenaFixtureJob(0, { target: 1n, clock: { now: Date.now() }, id: () => String(++id) }));
  return kadenaWork(source);
}

const CASES: { algorithm: AlgorithmKey; work: () => StratumWork; agents: string[] }[] = [
  {
    algorithm: 'eaglesong',
    work: () => ckbWork(new CkbFixtureSource([REAL_CKB_POW_BLOCK])),
    agents: ['ckbminer-v1.0.0'],
  },
  {
    algorithm: 'kheavyhash',
    work: () => kaspaWork(new KaspaFixtureSource({ now: Date.now, bits: 0x1906ffff })),
    agents: ['IceRiverMiner-v1.1', 'GodMiner/2.0.0', 'BzMiner-v21', 'lolMiner 1.88'],
  },
  { algorithm: 'blake2s', work: kadenaSource, agents: ['kdaminer-v1.0.0'] },
];

/** Values a broken or hostile miner might put anywhere in a message. */
const VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1,
  2 ** 53 + 2,
  1e308,
  '',
  '1',
  '2',
  '0x',
  '0xffffffffffffffff',
  'ff'.repeat(12),
  'ff'.repeat(40),
  '00'.repeat(8),
  'zz'.repeat(12),
  '-1',
  'fuzzer.rig1',
  [],
  {},
  [[[]]],
  { __proto__: { polluted: true } },
];

const METHODS: unknown[] = [
  'mining.submit',
  'mining.subscribe',
  'mining.authorize',
  'mining.suggest_difficulty',
  'mining.extranonce.subscribe',
  'mining.set_target',
  42,
  null,
];

function fuzzLines(count: number): string[] {
  const pick = () => VALUES[Math.floor(Math.random() * VALUES.length)];
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    if (kind === 0)
      lines.push(
        randomBytes(1 + (i % 60))
          .toString('latin1')
          .replaceAll('\n', ' '),
      );
    else if (kind === 1) lines.push(JSON.stringify(pick()));
    else if (kind === 2) {
      // A submit of the right worker with any job id and any nonce shapes.
      const params = ['fuzzer.rig1', pick(), ...Array.from({ length: i % 6 }, pick)];
      lines.push(JSON.stringify({ id: i, method: 'mining.submit', params }));
    } else {
      const params = Array.from({ length: i % 7 }, pick);
      lines.push(
        JSON.stringify({ id: pick(), method: METHODS[i % METHODS.length], params: i % 4 === 0 ? pick() : params }),
      );
    }
  }
  return lines;
}

describe('CKB, Kaspa and Kadena ports under random input', () => {
  for (const c of CASES) {
    it(`${c.algorithm}: answers, keeps serving, credits nothing`, { timeout: 30_000 }, async () => {
      // A share target of 2^64: no nonce a fuzzer sends meets it (and none of these jobs' network targets).
      const difficulty = POW[c.algorithm].difficultyForTarget(1n << 64n);
      harness = await startHarness({
        work: [c.work()],
        limits: { maxMalformed: 1_000_000, maxInvalidShareRatio: 1 },
        listeners: [{ algorithm: c.algorithm, minDifficulty: difficulty, startDifficulty: difficulty }],
      });
      const h = harness;
      for (const agent of c.agents) {
        const client = await h.connect('standard', c.algorithm);
        expect((await client.request('mining.subscribe', [agent, null])).error).toBeNull();
        expect((await client.request('mining.authorize', ['fuzzer.rig1', 'x'])).result).toBe(true);
        // The fuzz goes to a miner with work: its first job has come.
        await client.next((m) => m.method === 'mining.notify');
        client.send(`${fuzzLines(400).join('\n')}\n`);
        client.send('\u0000\u0001\u0002\r\n\r\n{"id":1,\n');
        // This connection still answers, and a new one is served. Nothing to wait for first: a session
        // handles its lines in order, so this answer comes after every line above was dealt with.
        expect((await client.request('mining.suggest_difficulty', [difficulty])).result).toBe(true);
        expect(client.isOpen).toBe(true);
        const other = await h.connect('standard', c.algorithm);
        expect((await other.request('mining.subscribe', [agent])).error).toBeNull();
      }
      await h.server.flush();
      const totals = h.bus.totals('fuzzer', 'rig1');
      expect(totals.valid).toBe(0);
      expect(totals.acceptedDifficulty).toBe(0);
      expect(h.bus.blocks).toEqual([]);
    });
  }
});
