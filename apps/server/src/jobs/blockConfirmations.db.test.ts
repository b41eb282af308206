import { type BlockStatus, RpcError } from '@lodestone/chain';
import {
  balancesOfSystemAccount,
  blockRewardKey,
  type Database,
  type NewBlock,
  reconcileLedger,
  recordBlock,
} from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FoundBlockRef } from '../chains/chain.js';
import {
  BLOCK_NOT_FOUND_WARNING_MS,
  blockConfirmationJob,
  COINBASE_MATURITY,
  DEMO_BLOCK_PERIOD_MS,
  demoConfirmations,
  requiredConfirmations,
  runBlockConfirmations,
} from './blockConfirmations.js';
import { recordingLog } from './testing.js';

const T = (iso: string) => new Date(`2024-05-06T${iso}Z`);
const later = (at: Date, ms: number) => new Date(at.getTime() + ms);

describe('maturity rules', () => {
  it('real blocks wait for coinbase maturity or the catalogue count, whichever is larger; demo blocks for the catalogue', () => {
    expect(requiredConfirmations(6, true)).toBe(COINBASE_MATURITY);
    expect(requiredConfirmations(120, true)).toBe(120);
    expect(requiredConfirmations(undefined, true)).toBe(COINBASE_MATURITY);
    expect(requiredConfirmations(6, false)).toBe(6);
  });

  it('counts one demo confirmation per whole ten minutes since the block was found', () => {
    expect(demoConfirmations(T('10:00:00'), T('10:00:00'))).toBe(0);
    expect(demoConfirmations(T('10:00:00'), T('10:09:59'))).toBe(0);
    expect(demoConfirmations(T('10:00:00'), T('10:10:00'))).toBe(1);
    expect(demoConfirmations(T('10:00:00'), T('11:05:00'))).toBe(6);
    expect(demoConfirmations(T('10:00:00'), T('09:00:00'))).toBe(0);
  });
});

const LTC_MINED = [{ ticker: 'LTC', algorithm: 'scrypt' }];
let sequence = 0;

function block(over: Partial<NewBlock> = {}): NewBlock {
  const n = ++sequence;
  return {
    id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    node: 'node-1',
    algorithm: 'scrypt',
    coin: 'LTC',
    height: 1000 + n,
    hash: n.toString(16).padStart(64, '0'),
    reward: '625000000',
    account: 'alice',
    worker: 'rig1',
    difficulty: '512',
    status: 'pending',
    found_at: T('10:00:00'),
    submit_error: null,
    ...over,
  };
}

describe.each(testEngines())('block confirmations on %s', (engine) => {
  let database: Database;
  let log: ReturnType<typeof recordingLog>;
  /** What the fake daemon says, by hash; a missing hash is not found. */
  let chain: Map<string, BlockStatus>;
  let asked: string[];

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
    log = recordingLog();
    chain = new Map();
    asked = [];
  });

  const statusOf = async (_coin: string, { hash }: FoundBlockRef): Promise<BlockStatus> => {
    asked.push(hash);
    return chain.get(hash) ?? { kind: 'not-found' };
  };
  const run = (now: Date, minedCoins = LTC_MINED) =>
    runBlockConfirmations({ db: database.db, minedCoins, statusOf, log }, now);
  const row = (hash: string) =>
    database.db.selectFrom('blocks').selectAll().where('hash', '=', hash).executeTakeFirstOrThrow();
  const poolBlocks = async () => balancesOfSystemAccount(database.db, 'pool:blocks');

  it('counts a real block’s confirmations, then settles it at maturity with one ledger transaction', async () => {
    const b = block();
    await recordBlock(database.db, b);
    chain.set(b.hash, { kind: 'in-main-chain', confirmations: 5, height: 1001 });
    expect(await run(T('10:05:00'))).toEqual({ confirmed: [], orphaned: [], updated: [b.hash] });
    expect(await row(b.hash)).toMatchObject({ status: 'pending', confirmations: 5, settled_at: null });
    // Six is the catalogue's count for LTC, but a coinbase needs 100.
    chain.set(b.hash, { kind: 'in-main-chain', confirmations: 99, height: 1001 });
    await run(T('20:00:00'));
    expect(await row(b.hash)).toMatchObject({ status: 'pending', confirmations: 99 });
    expect(await poolBlocks()).toEqual([]);

    chain.set(b.hash, { kind: 'in-main-chain', confirmations: 100, height: 1001 });
    expect((await run(T('20:01:00'))).confirmed).toEqual([b.hash]);
    expect(await row(b.hash)).toMatchObject({ status: 'confirmed', confirmations: 100, settled_at: T('20:01:00') });
    expect(await poolBlocks()).toEqual([{ coin: 'LTC', amount: 625000000n }]);
    expect(await balancesOfSystemAccount(database.db, 'pool:chain')).toEqual([{ coin: 'LTC', amount: -625000000n }]);
    const tx = await database.db
      .selectFrom('ledger_transactions')
      .select(['kind', 'reference', 'reason'])
      .where('idempotency_key', '=', blockRewardKey(b.hash))
      .execute();
    expect(tx).toEqual([{ kind: 'block_reward', reference: b.hash, reason: null }]);

    // A settled block is never asked about or credited again.
    asked = [];
    await run(T('20:02:00'));
    expect(asked).toEqual([]);
    expect(await poolBlocks()).toEqual([{ coin: 'LTC', amount: 625000000n }]);
    expect(await reconcileLedger(database.db)).toEqual([]);
  });

  it('orphans a block off the best chain, with no revenue', async () => {
    const b = block();
    await recordBlock(database.db, b);
    chain.set(b.hash, { kind: 'in-main-chain', confirmations: 3, height: 1001 });
    await run(T('10:03:00'));
    chain.set(b.hash, { kind: 'orphaned', height: 1001 });
    expect((await run(T('10:04:00'))).orphaned).toEqual([b.hash]);
    expect(await row(b.hash)).toMatchObject({ status: 'orphaned', confirmations: 0, settled_at: T('10:04:00') });
    expect(await poolBlocks()).toEqual([]);
    expect(log.entries.some((e) => e.level === 'warn' && /orphaned/.test(e.message))).toBe(true);
  });

  it('leaves a block the daemon does not know pending, and warns once it has been missing for an hour', async () => {
    const b = block();
    await recordBlock(database.db, b);
    await run(T('10:01:00'));
    expect(log.entries.filter((e) => e.level === 'warn')).toEqual([]);
    await run(later(T('10:00:00'), BLOCK_NOT_FOUND_WARNING_MS));
    expect(await row(b.hash)).toMatchObject({ status: 'pending', confirmations: 0 });
    expect(
      log.entries.filter((e) => (e.fields as { alert?: string }).alert === 'block-unknown-to-daemon'),
    ).toHaveLength(1);
  });

  it('matures demo blocks by the clock at the catalogue count and records their reward as demo revenue', async () => {
    const demo = block({ algorithm: 'sha256', coin: 'BTC', reward: '312500000' });
    await recordBlock(database.db, demo);
    await run(later(T('10:00:00'), 2 * DEMO_BLOCK_PERIOD_MS + 1));
    expect(asked).toEqual([]);
    expect(await row(demo.hash)).toMatchObject({ status: 'pending', confirmations: 2 });
    // BTC needs 3 confirmations in the catalogue.
    expect((await run(later(T('10:00:00'), 3 * DEMO_BLOCK_PERIOD_MS))).confirmed).toEqual([demo.hash]);
    expect(await row(demo.hash)).toMatchObject({ status: 'confirmed', confirmations: 3 });
    expect(await poolBlocks()).toEqual([{ coin: 'BTC', amount: 312500000n }]);
    const tx = await database.db.selectFrom('ledger_transactions').select(['reason']).executeTakeFirstOrThrow();
    expect(tx.reason).toBe('demo network block');
    expect(await reconcileLedger(database.db)).toEqual([]);
  });

  it('treats a block as the demo network’s when its coin or algorithm is not mined from a daemon', async () => {
    // LTC mined on scrypt from a daemon; an LTC block on another algorithm cannot be from that daemon.
    const odd = block({ algorithm: 'x11' });
    await recordBlock(database.db, odd);
    await run(later(T('10:00:00'), 6 * DEMO_BLOCK_PERIOD_MS));
    expect(asked).toEqual([]);
    expect(await row(odd.hash)).toMatchObject({ status: 'confirmed', confirmations: 6 });
  });

  it('settles a block of a coin outside the catalogue without a ledger entry, and says so', async () => {
    const b = block({ coin: 'XMR' });
    await recordBlock(database.db, b);
    chain.set(b.hash, { kind: 'in-main-chain', confirmations: 150, height: 1001 });
    await run(T('12:00:00'), [{ ticker: 'XMR', algorithm: 'scrypt' }]);
    expect(await row(b.hash)).toMatchObject({ status: 'confirmed', confirmations: 150 });
    expect(await database.db.selectFrom('ledger_transactions').select('id').execute()).toEqual([]);
    expect(log.entries.some((e) => e.level === 'warn' && /outside the catalogue/.test(e.message))).toBe(true);
  });

  it('skips a coin whose daemons fail, goes on with the others, then fails the run', async () => {
    const real = block();
    const demo = block({ algorithm: 'sha256', coin: 'BTC' });
    await recordBlock(database.db, real);
    await recordBlock(database.db, demo);
    const failing = async (): Promise<BlockStatus> => {
      throw new RpcError('unreachable', 'connect ECONNREFUSED', {
        method: 'getblockheader',
        daemon: 'http://127.0.0.1:1/',
      });
    };
    await expect(
      runBlockConfirmations(
        { db: database.db, minedCoins: LTC_MINED, statusOf: failing, log },
        later(T('10:00:00'), 3 * DEMO_BLOCK_PERIOD_MS),
      ),
    ).rejects.toThrow(/block confirmations failed for LTC/);
    expect(await row(real.hash)).toMatchObject({ status: 'pending' });
    expect(await row(demo.hash)).toMatchObject({ status: 'confirmed' });
  });

  it('the job asks through its status function on its schedule', async () => {
    const b = block();
    await recordBlock(database.db, b);
    chain.set(b.hash, { kind: 'in-main-chain', confirmations: 100, height: 1001 });
    const job = blockConfirmationJob({ config: { coins: [] }, statusOf });
    expect(job).toMatchObject({ name: 'block-confirmations', everyMs: 60_000, singleton: true });
    // With no coin configured every block is a demo block: the daemon is not asked.
    await job.run({ database, log, now: T('10:30:00'), signal: new AbortController().signal });
    expect(asked).toEqual([]);
    expect(await row(b.hash)).toMatchObject({ status: 'pending', confirmations: 3 });
  });
});
