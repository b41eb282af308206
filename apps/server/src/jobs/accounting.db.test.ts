import { type Database, pruneWorkerRejects, recordShareBatch } from '@lodestone/db';
import {
  backendPid,
  createTestDatabase,
  emptyTestDatabase,
  someSessionWaitsFor,
  testEngines,
  workerUnrolledDrift,
} from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InProcessBus } from '../bus/inProcess.js';
import { applyShareBatch, batchMinute, recordFoundBlock, startShareConsumers } from './accounting.js';
import { foundBlock, recordingLog, shareBatch, shareCounts, uuid } from './testing.js';

const at = (iso: string) => new Date(iso);

describe('batchMinute', () => {
  it('is the UTC minute of the batch’s last instant', () => {
    const t = (iso: string) => Date.parse(iso);
    const minute = (start: string, end: string) =>
      batchMinute({ intervalStart: t(start), intervalEnd: t(end) }).toISOString();
    expect(minute('2024-05-06T10:00:10Z', '2024-05-06T10:00:15Z')).toBe('2024-05-06T10:00:00.000Z');
    // spans the boundary: all of it goes to the minute that holds its end
    expect(minute('2024-05-06T10:00:58Z', '2024-05-06T10:01:03Z')).toBe('2024-05-06T10:01:00.000Z');
    // ends exactly on the boundary: the end is exclusive, so its last instant is 10:00:59.999
    expect(minute('2024-05-06T10:00:55Z', '2024-05-06T10:01:00Z')).toBe('2024-05-06T10:00:00.000Z');
    // degenerate (empty) interval
    expect(minute('2024-05-06T10:01:00Z', '2024-05-06T10:01:00Z')).toBe('2024-05-06T10:01:00.000Z');
  });
});

describe.each(testEngines())('accounting on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
  });
  afterEach(async () => {
    // Each worker's unrolled figures still match its minute rows (migration 0034).
    expect(await workerUnrolledDrift(database.db)).toEqual([]);
  });

  const minuteRows = () =>
    database.db
      .selectFrom('worker_stats_minute as s')
      .innerJoin('workers as w', 'w.id', 's.worker_id')
      .select(['w.account', 'w.name', 's.minute', 's.accepted_difficulty', 's.valid', 's.invalid', 's.stale'])
      .orderBy('w.account')
      .orderBy('w.name')
      .orderBy('s.minute')
      .execute();

  const workerRows = () =>
    database.db
      .selectFrom('workers')
      .select(['account', 'name', 'algorithm', 'first_seen_at', 'last_share_at', 'total_accepted_difficulty'])
      .orderBy('account')
      .orderBy('name')
      .execute();

  it('writes workers and their minute counts', async () => {
    const batch = shareBatch('2024-05-06T10:00:15Z', [
      shareCounts('alice', 'rig1', { acceptedDifficulty: 1024, valid: 2, invalid: 1 }),
      shareCounts('bob', 'rig1', { acceptedDifficulty: 0.5, valid: 1, stale: 3 }),
      shareCounts('carol', 'bad', { invalid: 4 }),
    ]);
    expect(await applyShareBatch(database.db, batch)).toEqual({ applied: true });
    expect(await minuteRows()).toEqual([
      {
        account: 'alice',
        name: 'rig1',
        minute: at('2024-05-06T10:00:00Z'),
        accepted_difficulty: '1024',
        valid: 2,
        invalid: 1,
        stale: 0,
      },
      {
        account: 'bob',
        name: 'rig1',
        minute: at('2024-05-06T10:00:00Z'),
        accepted_difficulty: '0.5',
        valid: 1,
        invalid: 0,
        stale: 3,
      },
      {
        account: 'carol',
        name: 'bad',
        minute: at('2024-05-06T10:00:00Z'),
        accepted_difficulty: '0',
        valid: 0,
        invalid: 4,
        stale: 0,
      },
    ]);
    expect(await workerRows()).toEqual([
      expect.objectContaining({
        account: 'alice',
        first_seen_at: at('2024-05-06T10:00:10Z'),
        last_share_at: at('2024-05-06T10:00:14Z'),
        total_accepted_difficulty: '1024',
      }),
      expect.objectContaining({ account: 'bob', total_accepted_difficulty: '0.5' }),
      expect.objectContaining({ account: 'carol', total_accepted_difficulty: '0' }),
    ]);
    const batches = await database.db.selectFrom('share_batches').selectAll().execute();
    expect(batches).toEqual([
      {
        id: batch.id,
        node: 'node-1',
        algorithm: 'scrypt',
        interval_start: at('2024-05-06T10:00:10Z'),
        interval_end: at('2024-05-06T10:00:15Z'),
        applied_at: expect.any(Date),
        rolled_at: null,
      },
    ]);
  });

  it('adds later batches to the same minute, buckets by the batch end, keeps the latest share time', async () => {
    await applyShareBatch(
      database.db,
      shareBatch('2024-05-06T10:00:20Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 100, valid: 1 })]),
    );
    await applyShareBatch(
      database.db,
      shareBatch('2024-05-06T10:00:50Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 200, valid: 2 })]),
    );
    // 10:00:58 – 10:01:03: across the boundary, counted in 10:01
    await applyShareBatch(
      database.db,
      shareBatch('2024-05-06T10:01:03Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 300, valid: 3 })]),
    );
    // an older batch delivered late never moves last_share_at back
    await applyShareBatch(
      database.db,
      shareBatch('2024-05-06T09:59:00Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 400, valid: 4 })]),
    );

    expect((await minuteRows()).map((r) => [r.minute.toISOString(), r.accepted_difficulty, r.valid])).toEqual([
      ['2024-05-06T09:58:00.000Z', '400', 4],
      ['2024-05-06T10:00:00.000Z', '300', 3],
      ['2024-05-06T10:01:00.000Z', '300', 3],
    ]);
    expect(await workerRows()).toEqual([
      expect.objectContaining({
        first_seen_at: at('2024-05-06T09:58:55Z'),
        last_share_at: at('2024-05-06T10:01:02Z'),
        total_accepted_difficulty: '1000',
      }),
    ]);
  });

  it('merges a worker named twice in one batch, adding difficulties exactly', async () => {
    await applyShareBatch(
      database.db,
      shareBatch('2024-05-06T10:00:15Z', [
        shareCounts('alice', 'rig1', { acceptedDifficulty: 0.1, valid: 1 }),
        shareCounts('alice', 'rig1', {
          acceptedDifficulty: 0.2,
          valid: 1,
          lastShareAt: Date.parse('2024-05-06T10:00:14.500Z'),
        }),
      ]),
    );
    expect(await minuteRows()).toEqual([expect.objectContaining({ accepted_difficulty: '0.3', valid: 2 })]);
    expect(await workerRows()).toEqual([expect.objectContaining({ last_share_at: at('2024-05-06T10:00:14.500Z') })]);
  });

  it('applies the same batch once, however often it is delivered', async () => {
    const batch = shareBatch('2024-05-06T10:00:15Z', [
      shareCounts('alice', 'rig1', { acceptedDifficulty: 1024, valid: 2 }),
      shareCounts('bob', 'rig2', { acceptedDifficulty: 2048, valid: 4 }),
    ]);
    expect(await applyShareBatch(database.db, batch)).toEqual({ applied: true });
    const once = { minutes: await minuteRows(), workers: await workerRows() };
    expect(await applyShareBatch(database.db, batch)).toEqual({ applied: false });
    expect(await applyShareBatch(database.db, structuredClone(batch))).toEqual({ applied: false });
    expect({ minutes: await minuteRows(), workers: await workerRows() }).toEqual(once);
  });

  it('applies the same batch once when two deliveries race (concurrent transactions on PostgreSQL)', async () => {
    const batch = shareBatch('2024-05-06T10:00:15Z', [
      shareCounts('alice', 'rig1', { acceptedDifficulty: 1024, valid: 2 }),
      shareCounts('bob', 'rig2', { acceptedDifficulty: 2048, valid: 4 }),
    ]);
    const other = shareBatch('2024-05-06T10:00:20Z', [
      shareCounts('alice', 'rig1', { acceptedDifficulty: 1, valid: 1 }),
    ]);
    const results = await Promise.all([
      applyShareBatch(database.db, batch),
      applyShareBatch(database.db, batch),
      applyShareBatch(database.db, other),
      applyShareBatch(database.db, batch),
    ]);
    expect(results.filter((r) => r.applied)).toHaveLength(2);
    expect((await minuteRows()).map((r) => [r.account, r.accepted_difficulty, r.valid])).toEqual([
      ['alice', '1025', 3],
      ['bob', '2048', 4],
    ]);
    const { rows } = await sql<{ n: bigint }>`select count(*) as n from share_batches`.execute(database.db);
    expect(rows[0]?.n).toBe(2n);
  });

  it.runIf(engine === 'postgres')(
    'a delivery racing an uncommitted one waits for it, then changes nothing',
    async () => {
      const batch = shareBatch('2024-05-06T10:00:15Z', [
        shareCounts('alice', 'rig1', { acceptedDifficulty: 7, valid: 1 }),
      ]);
      // The first delivery, on its own connection, has inserted the batch id but not committed yet.
      const first = await database.db.startTransaction().execute();
      await recordShareBatch(first, {
        id: batch.id,
        node: batch.node,
        algorithm: batch.algorithm,
        intervalStart: new Date(batch.intervalStart),
        intervalEnd: new Date(batch.intervalEnd),
      });
      let settled = false;
      const second = applyShareBatch(database.db, batch).finally(() => {
        settled = true;
      });
      // PostgreSQL shows the second delivery's session blocked by the first's (a lock wait), not merely slow.
      await someSessionWaitsFor(database.db, await backendPid(first));
      expect(settled).toBe(false); // blocked on the primary key
      await first.commit().execute();
      expect(await second).toEqual({ applied: false });
      expect(await minuteRows()).toEqual([]);
    },
  );

  it('drops a batch that can never be applied, writing and crediting nothing', async () => {
    const good = shareBatch('2024-05-06T10:00:15Z', [
      shareCounts('alice', 'rig1', { acceptedDifficulty: 1, valid: 1 }),
    ]);
    good.network = { coin: 'LTC', height: 2_700_000, reward: '625000000', difficulty: '1000', demo: false };
    const bad = [
      { ...good, id: 'not-a-uuid' },
      { ...good, algorithm: 'md5' as 'scrypt' },
      { ...good, intervalEnd: good.intervalStart - 1 },
      { ...good, workers: [shareCounts('', 'rig1', { valid: 1 })] },
      { ...good, workers: [shareCounts('alice', 'rig1', { acceptedDifficulty: -1, valid: 1 })] },
      { ...good, workers: [shareCounts('alice', 'rig1', { acceptedDifficulty: Number.NaN })] },
      { ...good, workers: [shareCounts('alice', 'rig1', { valid: 1.5 })] },
    ];
    const money = () =>
      Promise.all(
        (['ledger_entries', 'pps_credits', 'network_states'] as const).map((table) =>
          database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
            .then((r) => Number(r.n)),
        ),
      );
    const before = await money();
    const bus = new InProcessBus({ retryBackoffMs: 5 });
    const log = recordingLog();
    const stop = await startShareConsumers({
      bus,
      db: database.db,
      log,
      credit: { feePercent: 1, priceMaxAgeMs: 86_400_000 },
    });
    try {
      for (const batch of bad) await bus.publishShareBatch(batch);
      await bus.close();
    } finally {
      await stop();
    }
    expect(bus.pending()).toEqual({ 'share-batches': 0, 'found-blocks': 0 });
    expect(log.entries.filter((e) => e.level === 'error')).toHaveLength(bad.length);
    expect(await workerRows()).toEqual([]);
    expect(await database.db.selectFrom('share_batches').selectAll().execute()).toEqual([]);
    expect(await money()).toEqual(before);
  });

  it('keeps refused shares by worker, hour and reason, one row per reason however many entries, pruned by hour', async () => {
    const batch = shareBatch('2024-05-06T10:20:00Z', [
      shareCounts('alice', 'rig1', { invalid: 2, stale: 1, rejectReasons: { duplicate: 2, stale: 1 } }),
      shareCounts('alice', 'rig1', { invalid: 1, rejectReasons: { duplicate: 1 } }),
      shareCounts('bob', 'rig1', { valid: 3, acceptedDifficulty: 3 }),
    ]);
    await applyShareBatch(database.db, batch);
    await applyShareBatch(database.db, batch); // a redelivery adds nothing
    const rejects = () =>
      database.db.selectFrom('worker_rejects_hour').select(['hour', 'reason', 'shares']).orderBy('reason').execute();
    expect(await rejects()).toEqual([
      { hour: at('2024-05-06T10:00:00Z'), reason: 'duplicate', shares: 3n },
      { hour: at('2024-05-06T10:00:00Z'), reason: 'stale', shares: 1n },
    ]);
    expect(await pruneWorkerRejects(database.db, at('2024-05-06T10:00:00Z'), 100)).toBe(0);
    expect(await pruneWorkerRejects(database.db, at('2024-05-06T11:00:00Z'), 1)).toBe(1);
    expect(await pruneWorkerRejects(database.db, at('2024-05-06T11:00:00Z'), 100)).toBe(1);
    expect(await rejects()).toEqual([]);
  });

  it('records a found block once, whichever way it is reported again', async () => {
    const block = foundBlock({ hash: 'AB'.repeat(32), networkDifficulty: '1234.5' });
    expect(await recordFoundBlock(database.db, block)).toEqual({ recorded: true });
    expect(await recordFoundBlock(database.db, block)).toEqual({ recorded: false });
    expect(await recordFoundBlock(database.db, { ...block, id: uuid() })).toEqual({ recorded: false }); // same hash
    const rows = await database.db.selectFrom('blocks').selectAll().execute();
    expect(rows).toEqual([
      {
        id: block.id,
        node: 'node-1',
        algorithm: 'scrypt',
        coin: 'LTC',
        height: 2_700_000n,
        hash: 'ab'.repeat(32),
        reward: '625000000',
        account: 'alice',
        worker: 'rig1',
        difficulty: '65536',
        // No batch was mined against LTC: there was no round to close into the block.
        network_difficulty: '1234.5',
        round_difficulty: null,
        confirmations_required: null,
        status: 'pending',
        found_at: at('2024-05-06T10:00:00Z'),
        submit_error: null,
        confirmations: 0,
        settled_at: null,
        solo: false,
        solo_fee_percent: null,
        // Litecoin is one chain.
        chain: null,
      },
    ]);
  });

  it('turns a block recorded as refused into pending when its acceptance is reported, and nothing else', async () => {
    const network = { coin: 'LTC', height: 7, reward: '625000000', difficulty: '1000', demo: false };
    await applyShareBatch(
      database.db,
      shareBatch('2024-05-06T09:59:00Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 800, valid: 1 })], {
        network,
      }),
    );
    const refused = foundBlock({
      hash: 'CD'.repeat(32),
      submitResult: { accepted: false, reason: 'stale: the DOGE chain moved on' },
    });
    expect(await recordFoundBlock(database.db, refused)).toEqual({ recorded: true });
    const round = () => database.db.selectFrom('block_rounds').select('accepted_difficulty').executeTakeFirstOrThrow();
    // A refused block is no block: the round goes on.
    expect(await round()).toEqual({ accepted_difficulty: '800' });
    const accepted = { ...refused, id: uuid(), submitResult: { accepted: true as const } };
    expect(await recordFoundBlock(database.db, accepted)).toEqual({ recorded: true });
    expect(await round()).toEqual({ accepted_difficulty: '0' });
    // A refusal reported after the acceptance changes nothing.
    expect(await recordFoundBlock(database.db, { ...refused, id: uuid() })).toEqual({ recorded: false });
    const rows = await database.db
      .selectFrom('blocks')
      .select(['id', 'status', 'submit_error', 'round_difficulty'])
      .execute();
    expect(rows).toEqual([{ id: refused.id, status: 'pending', submit_error: null, round_difficulty: '800' }]);
  });

  it('records CKB and Kadena block hashes as their chains write them, and refuses another chain’s form', async () => {
    const ckb = foundBlock({ algorithm: 'eaglesong', coin: 'CKB', hash: `0x${'AB'.repeat(32)}` });
    // chainweb's block hash text: 43 base64url characters, case-sensitive.
    const kadenaHash = Buffer.alloc(32, 0xfb).toString('base64url');
    const kadena = foundBlock({ algorithm: 'blake2s', coin: 'KDA', hash: kadenaHash });
    expect(await recordFoundBlock(database.db, ckb)).toEqual({ recorded: true });
    expect(await recordFoundBlock(database.db, kadena)).toEqual({ recorded: true });
    const hashes = await database.db.selectFrom('blocks').select(['algorithm', 'hash']).orderBy('algorithm').execute();
    expect(hashes).toEqual([
      { algorithm: 'blake2s', hash: kadenaHash },
      { algorithm: 'eaglesong', hash: `0x${'ab'.repeat(32)}` },
    ]);
    for (const bad of [
      foundBlock({ algorithm: 'blake2s', coin: 'KDA', hash: 'ab'.repeat(32) }),
      foundBlock({ algorithm: 'blake2s', coin: 'KDA', hash: `${kadenaHash.slice(0, 42)}B` }),
      foundBlock({ algorithm: 'scrypt', hash: `0x${'ab'.repeat(32)}` }),
      foundBlock({ algorithm: 'eaglesong', coin: 'CKB', hash: kadenaHash }),
    ]) {
      await expect(recordFoundBlock(database.db, bad), bad.hash).rejects.toThrow('hash is not 32 bytes');
    }
  });

  it('records a refused block as rejected with the daemon’s reason', async () => {
    const block = foundBlock({ hash: 'cd'.repeat(32), submitResult: { accepted: false, reason: 'bad-cb-amount' } });
    await recordFoundBlock(database.db, block);
    expect(await database.db.selectFrom('blocks').select(['status', 'submit_error']).execute()).toEqual([
      { status: 'rejected', submit_error: 'bad-cb-amount' },
    ]);
  });

  it('consumers apply what the bus delivers and drop invalid messages with an error', async () => {
    const bus = new InProcessBus({ retryBackoffMs: 5 });
    const log = recordingLog();
    const stop = await startShareConsumers({ bus, db: database.db, log });
    try {
      const first = shareBatch('2024-05-06T10:00:15Z', [
        shareCounts('alice', 'rig1', { acceptedDifficulty: 10, valid: 1 }),
      ]);
      await bus.publishShareBatch(first);
      await bus.publishShareBatch({ ...first, id: 'garbage' });
      await bus.publishShareBatch(first); // redelivery
      await bus.publishShareBatch(
        shareBatch('2024-05-06T10:00:20Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 5, valid: 1 })]),
      );
      await bus.publishFoundBlock(foundBlock({ hash: 'ef'.repeat(32) }));
      await bus.close();
    } finally {
      await stop();
    }
    expect(await minuteRows()).toEqual([expect.objectContaining({ accepted_difficulty: '15', valid: 2 })]);
    expect(await database.db.selectFrom('blocks').select('hash').execute()).toEqual([{ hash: 'ef'.repeat(32) }]);
    expect(log.entries.filter((e) => e.level === 'error')).toEqual([
      expect.objectContaining({
        message: 'dropping a message accounting can never apply',
        fields: expect.objectContaining({ batchId: 'garbage' }),
      }),
    ]);
  });
});
