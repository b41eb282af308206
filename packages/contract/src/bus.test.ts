import type { FoundBlock, ShareBatch } from '@lodestone/domain';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { blockHashText, foundBlockMessage, shareBatchMessage } from './bus.js';

const batch: ShareBatch = {
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  node: 'node-1',
  algorithm: 'scrypt',
  intervalStart: 1_714_989_610_000,
  intervalEnd: 1_714_989_615_000,
  workers: [
    {
      account: 'alice',
      worker: 'rig1',
      acceptedDifficulty: 1024.5,
      valid: 2,
      invalid: 1,
      stale: 0,
      lastShareAt: 1_714_989_614_000,
      rejectReasons: { 'low-difficulty': 1 },
    },
    // A worker without a name (login `alice`) and without accepted shares.
    {
      account: 'alice',
      worker: '',
      acceptedDifficulty: 0,
      valid: 0,
      invalid: 0,
      stale: 2,
      lastShareAt: 1_714_989_611_000,
      rejectReasons: {},
    },
  ],
  network: { coin: 'LTC', height: 2_700_000, reward: '625000000', difficulty: '45000000.5', demo: false },
  connections: [
    {
      account: 'alice',
      worker: 'rig1',
      session: '0d3c0f4e-6a4b-4f1e-9a57-8f1f0b2c3d4e',
      event: 'connect',
      at: 1_714_989_611_500,
      ipRange: '203.0.113.0/24',
      userAgent: 'cgminer/4.12.1',
    },
    { account: 'alice', worker: '', session: 's-2', event: 'disconnect', at: 1_714_989_612_000, reason: 'idle' },
  ],
};

const block: FoundBlock = {
  id: '00000000-0000-4000-8000-000000000001',
  node: 'node-1',
  algorithm: 'scrypt',
  coin: 'LTC',
  height: 2_700_000,
  hash: 'AB'.repeat(32),
  reward: '625000000',
  account: 'alice',
  worker: 'rig1',
  difficulty: 65536,
  foundAt: 1_714_989_600_000,
  submitResult: { accepted: false, reason: 'bad-cb-amount' },
};

const worker = batch.workers[0] as ShareBatch['workers'][number];
const network = batch.network as NonNullable<ShareBatch['network']>;
const connection = batch.connections?.[0] as NonNullable<ShareBatch['connections']>[number];

/** The paths of the issues a message fails with, or undefined when it parses. */
function problems(schema: z.ZodType, message: unknown): string[] | undefined {
  const result = schema.safeParse(message);
  return result.success ? undefined : result.error.issues.map((i) => i.path.join('.'));
}

describe('share batch message', () => {
  it('has exactly the domain’s ShareBatch type', () => {
    expectTypeOf<z.infer<typeof shareBatchMessage>>().toEqualTypeOf<ShareBatch>();
  });

  it('accepts a batch as stratum nodes send it, with or without its network, and returns it unchanged', () => {
    expect(shareBatchMessage.parse(batch)).toEqual(batch);
    const { network: _, connections: __, ...older } = batch;
    expect(shareBatchMessage.parse(older)).toEqual(older);
    expect(shareBatchMessage.parse({ ...batch, workers: [] })).toEqual({ ...batch, workers: [] });
    // A batch of one instant (end = start) is degenerate but harmless.
    expect(problems(shareBatchMessage, { ...batch, intervalEnd: batch.intervalStart })).toBeUndefined();
  });

  it('survives the trip through JSON (the NATS adapter)', () => {
    expect(shareBatchMessage.parse(JSON.parse(JSON.stringify(batch)))).toEqual(batch);
  });

  it('carries solo ports’ workers apart, with their best shares (docs/solo.md)', () => {
    const solo = { ...batch, soloWorkers: [{ ...worker, bestDifficulty: 1234.5 }] };
    expect(shareBatchMessage.parse(solo)).toEqual(solo);
    expect(problems(shareBatchMessage, { ...solo, soloWorkers: [{ ...worker, bestDifficulty: 0 }] })).toEqual([
      'soloWorkers.0.bestDifficulty',
    ]);
    expect(problems(shareBatchMessage, { ...solo, soloWorkers: [{ ...worker, account: '' }] })).toEqual([
      'soloWorkers.0.account',
    ]);
  });

  it('refuses what accounting can never apply', () => {
    const withWorker = (over: object) => ({ ...batch, workers: [{ ...worker, ...over }] });
    const cases: [unknown, string][] = [
      [null, ''],
      ['{"id":1}', ''],
      [{ ...batch, id: 'not-a-uuid' }, 'id'],
      [{ ...batch, id: undefined }, 'id'],
      [{ ...batch, node: '' }, 'node'],
      [{ ...batch, algorithm: 'md5' }, 'algorithm'],
      [{ ...batch, intervalStart: -1 }, 'intervalStart'],
      [{ ...batch, intervalStart: 1.5 }, 'intervalStart'],
      [{ ...batch, intervalEnd: batch.intervalStart - 1 }, 'intervalEnd'],
      [{ ...batch, workers: {} }, 'workers'],
      [withWorker({ account: '' }), 'workers.0.account'],
      [withWorker({ worker: 7 }), 'workers.0.worker'],
      [withWorker({ acceptedDifficulty: -1 }), 'workers.0.acceptedDifficulty'],
      [withWorker({ acceptedDifficulty: Number.NaN }), 'workers.0.acceptedDifficulty'],
      [withWorker({ acceptedDifficulty: Number.POSITIVE_INFINITY }), 'workers.0.acceptedDifficulty'],
      [withWorker({ acceptedDifficulty: '1024' }), 'workers.0.acceptedDifficulty'],
      [withWorker({ valid: 1.5 }), 'workers.0.valid'],
      [withWorker({ invalid: -1 }), 'workers.0.invalid'],
      [withWorker({ stale: 2 ** 53 }), 'workers.0.stale'],
      [withWorker({ lastShareAt: Number.NaN }), 'workers.0.lastShareAt'],
      [withWorker({ lastAcceptedAt: -5 }), 'workers.0.lastAcceptedAt'],
      [withWorker({ lastAcceptedAt: '1700000000000' }), 'workers.0.lastAcceptedAt'],
      [withWorker({ rejectReasons: { duplicate: -1 } }), 'workers.0.rejectReasons.duplicate'],
      [withWorker({ bestDifficulty: -2 }), 'workers.0.bestDifficulty'],
      [withWorker({ bestDifficulty: Number.NaN }), 'workers.0.bestDifficulty'],
      [{ ...batch, network: 'LTC' }, 'network'],
      [{ ...batch, network: { ...network, coin: 'ltc' } }, 'network.coin'],
      [{ ...batch, network: { ...network, height: -1 } }, 'network.height'],
      [{ ...batch, network: { ...network, reward: 625000000 } }, 'network.reward'],
      [{ ...batch, network: { ...network, reward: '6.25' } }, 'network.reward'],
      [{ ...batch, network: { ...network, reward: '-1' } }, 'network.reward'],
      [{ ...batch, network: { ...network, difficulty: '0.000' } }, 'network.difficulty'],
      [{ ...batch, network: { ...network, difficulty: '1e6' } }, 'network.difficulty'],
      [{ ...batch, network: { ...network, demo: 'no' } }, 'network.demo'],
      [{ ...batch, network: { ...network, blockSeconds: 0 } }, 'network.blockSeconds'],
      [{ ...batch, network: { ...network, fees: '1.5' } }, 'network.fees'],
      [{ ...batch, network: { ...network, fees: (BigInt(network.reward) + 1n).toString() } }, 'network.fees'],
      [{ ...batch, connections: [{ ...connection, account: '' }] }, 'connections.0.account'],
      [{ ...batch, connections: [{ ...connection, session: '' }] }, 'connections.0.session'],
      [{ ...batch, connections: [{ ...connection, event: 'reconnect' }] }, 'connections.0.event'],
      [{ ...batch, connections: [{ ...connection, at: -1 }] }, 'connections.0.at'],
      [{ ...batch, connections: [{ ...connection, reason: 'x'.repeat(201) }] }, 'connections.0.reason'],
      [{ ...batch, connections: [{ ...connection, userAgent: 'x'.repeat(201) }] }, 'connections.0.userAgent'],
    ];
    for (const [message, path] of cases) expect(problems(shareBatchMessage, message), path).toContain(path);
  });
});

describe('found block message', () => {
  it('has exactly the domain’s FoundBlock type', () => {
    expectTypeOf<z.infer<typeof foundBlockMessage>>().toEqualTypeOf<FoundBlock>();
  });

  it('accepts accepted and refused blocks of every chain’s hash form, unchanged', () => {
    expect(foundBlockMessage.parse(block)).toEqual(block);
    const accepted = { ...block, submitResult: { accepted: true } };
    expect(foundBlockMessage.parse(accepted)).toEqual(accepted);
    const kadena = { ...block, algorithm: 'blake2s', coin: 'KDA', hash: `${'A'.repeat(42)}w` };
    expect(foundBlockMessage.parse(kadena)).toEqual(kadena);
    const ckb = { ...block, algorithm: 'eaglesong', coin: 'CKB', hash: `0x${'ab'.repeat(32)}` };
    expect(foundBlockMessage.parse(ckb)).toEqual(ckb);
  });

  it('carries a solo block’s mark', () => {
    expect(foundBlockMessage.parse({ ...block, solo: true })).toEqual({ ...block, solo: true });
  });

  it('refuses what can never be recorded', () => {
    const cases: [unknown, string][] = [
      [{ ...block, id: 'garbage' }, 'id'],
      [{ ...block, algorithm: 'md5' }, 'algorithm'],
      [{ ...block, coin: undefined }, 'coin'],
      [{ ...block, height: -1 }, 'height'],
      [{ ...block, hash: 'ab'.repeat(31) }, 'hash'],
      [{ ...block, hash: `0x${'ab'.repeat(32)}` }, 'hash'],
      [{ ...block, algorithm: 'blake2s', hash: `${'A'.repeat(42)}B` }, 'hash'],
      [{ ...block, algorithm: 'eaglesong', hash: `${'A'.repeat(42)}w` }, 'hash'],
      [{ ...block, reward: 625000000 }, 'reward'],
      [{ ...block, difficulty: Number.NaN }, 'difficulty'],
      [{ ...block, difficulty: -1 }, 'difficulty'],
      [{ ...block, foundAt: 1.5 }, 'foundAt'],
      [{ ...block, account: null }, 'account'],
      [{ ...block, submitResult: undefined }, 'submitResult'],
      [{ ...block, submitResult: { accepted: false } }, 'submitResult.reason'],
      // Only a solo block says so; `solo: false` is never sent.
      [{ ...block, solo: false }, 'solo'],
      [{ ...block, solo: 'yes' }, 'solo'],
    ];
    for (const [message, path] of cases) expect(problems(foundBlockMessage, message), path).toContain(path);
  });
});

describe('blockHashText', () => {
  it('writes each chain’s hash as its nodes answer to it', () => {
    expect(blockHashText('sha256', 'AB'.repeat(32))).toBe('ab'.repeat(32));
    expect(blockHashText('eaglesong', 'AB'.repeat(32))).toBe(`0x${'ab'.repeat(32)}`);
    expect(blockHashText('eaglesong', `0X${'ab'.repeat(32)}`)).toBeUndefined();
    expect(blockHashText('blake2s', `${'a'.repeat(42)}w`)).toBe(`${'a'.repeat(42)}w`);
    expect(blockHashText('sha256', 'ab'.repeat(33))).toBeUndefined();
  });
});
