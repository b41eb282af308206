import {
  type CkbJob,
  CkbJobSource,
  type KadenaJob,
  KadenaJobSource,
  type KaspaJob,
  KaspaJobSource,
  type WorkJob,
  type WorkSource,
} from '@lodestone/chain';
import { KaspaNodeStandIn, STAND_IN_MINER, startChainwebNode, startCkbNode } from '@lodestone/chain/testing';
import { balancesOfSystemAccount, type Database, type NewBlock, recordBlock } from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, testEngines } from '@lodestone/db/testing';
import { POW } from '@lodestone/pow';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.js';
import { runBlockConfirmations } from './blockConfirmations.js';
import { nodeBlockStatus } from './chainBlockStatus.js';
import { recordingLog, uuid } from './testing.js';

/**
 * Found blocks of CKB, Kaspa and Kadena to maturity by their chains' rules, asked of the stand-in nodes
 * over their real transports: the pool's job source mines a real block on the stand-in, the block is
 * recorded as the jobs role records it, the stand-in's chain moves on, and the job settles it.
 */

const CKB_LOCK = {
  code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
  hash_type: 'type' as const,
  args: `0x${'aa'.repeat(20)}`,
};
const KAS_ADDRESS = 'kaspadev:qqqqwrs4rs3j5vfc8ary64zmvf5hqam7skxf8x4p4zhmd0wye0fdjdvq62sxf';
const MINER = {
  account: STAND_IN_MINER.account,
  public_keys: STAND_IN_MINER.publicKeys,
  predicate: STAND_IN_MINER.predicate,
};
const NOW = new Date('2026-03-01T12:00:00Z');

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The first nonce from 1 whose solution meets the job's network target, as its source submits it. */
function firstSolution<S>(job: WorkJob, candidate: (n: bigint) => { hashValue: bigint; solution: S }): S {
  for (let n = 1n; ; n++) {
    const { hashValue, solution } = candidate(n);
    if (hashValue <= job.networkTarget) return solution;
  }
}

const solveCkb = (job: CkbJob) =>
  firstSolution(job, (n) => {
    const nonce = Buffer.alloc(16);
    nonce.writeBigUInt64LE(n);
    return {
      hashValue: POW.eaglesong.hashValue(POW.eaglesong.hash(job.powMessage(nonce))),
      solution: job.block(nonce),
    };
  });
const solveKaspa = (job: KaspaJob) =>
  firstSolution(job, (n) => ({
    hashValue: POW.kheavyhash.hashValue(POW.kheavyhash.hash(job.powInput(n))),
    solution: job.block(n),
  }));
const solveKadena = (job: KadenaJob) =>
  firstSolution(job, (n) => {
    const solved = job.solved(n);
    return { hashValue: POW.blake2s.hashValue(POW.blake2s.hash(solved)), solution: solved };
  });

describe.each(testEngines())('found CKB, Kaspa and Kadena blocks by their chains’ rules on %s', (engine) => {
  let database: Database;
  let log: ReturnType<typeof recordingLog>;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
    log = recordingLog();
  });

  /** Mines a block through the pool's job source and records it as found (reward: the job's). */
  async function found<J extends WorkJob, S>(
    source: WorkSource<J, S>,
    solve: (job: J) => S,
    coin: string,
  ): Promise<{ hash: string; job: J }> {
    const job = source.current();
    if (!job) throw new Error(`no ${coin} job`);
    const result = await source.submitBlock(job, solve(job));
    expect(result).toMatchObject({ accepted: true });
    const block: NewBlock = {
      id: uuid(),
      node: 'node-1',
      algorithm: job.algorithm,
      coin,
      height: job.height,
      hash: result.hash,
      reward: job.coinbaseValue.toString(),
      account: 'alice',
      worker: 'rig1',
      difficulty: '1',
      status: 'pending',
      found_at: NOW,
      submit_error: null,
    };
    expect(await recordBlock(database.db, block)).toBe(true);
    return { hash: result.hash, job };
  }

  const row = (hash: string) =>
    database.db.selectFrom('blocks').selectAll().where('hash', '=', hash).executeTakeFirstOrThrow();

  function confirmer(coins: unknown[]) {
    const config = parseConfig({ COINS: JSON.stringify(coins) });
    const statusOf = nodeBlockStatus(config.coins);
    cleanups.push(() => statusOf.close());
    const minedCoins = config.coins.map((c) => ({ ticker: c.ticker, algorithm: c.algorithm }));
    return () => runBlockConfirmations({ db: database.db, minedCoins, statusOf, log }, NOW);
  }

  it('CKB: pending until the reward is final (+11) and the catalogue’s 24 blocks, then confirmed at the economic state’s reward', async () => {
    const node = await startCkbNode({ blockAssembler: { lock: CKB_LOCK } });
    cleanups.push(() => node.close());
    const source = new CkbJobSource({ nodes: [node.url], payoutLock: CKB_LOCK });
    cleanups.push(() => source.stop());
    await source.start();
    node.mine(12); // a chain old enough that the cellbase pays a reward
    await source.stop();
    await source.start();
    const { hash, job } = await found(source, solveCkb, 'CKB');
    const run = confirmer([{ algorithm: 'eaglesong', nodes: [node.url], payout_lock: CKB_LOCK }]);

    await run();
    expect(await row(hash)).toMatchObject({ status: 'pending', confirmations: 1 });
    node.mine(10); // tip = height + 10: the reward is not final yet
    await run();
    expect(await row(hash)).toMatchObject({ status: 'pending', confirmations: 11 });
    node.mine(1); // final, but 12 deep: the catalogue asks 24
    await run();
    expect(await row(hash)).toMatchObject({ status: 'pending', confirmations: 12 });
    node.mine(12);
    expect((await run()).confirmed).toEqual([hash]);

    // The reward the node's economic state gives (issuance + 60 % of the fees), not the job's estimate.
    const state = (await (
      await fetch(node.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_block_economic_state', params: [hash] }),
      })
    ).json()) as { result: { miner_reward: Record<string, string> } };
    const reward = Object.values(state.result.miner_reward).reduce((sum, v) => sum + BigInt(v), 0n);
    expect(reward).not.toBe(job.coinbaseValue);
    expect(await row(hash)).toMatchObject({ status: 'confirmed', confirmations: 24, reward: reward.toString() });
    expect(await balancesOfSystemAccount(database.db, 'pool:blocks')).toEqual([{ coin: 'CKB', amount: reward }]);
  });

  it('CKB: a block another branch replaced is orphaned (an uncle earns nothing)', async () => {
    const node = await startCkbNode({ blockAssembler: { lock: CKB_LOCK } });
    cleanups.push(() => node.close());
    const source = new CkbJobSource({ nodes: [node.url], payoutLock: CKB_LOCK });
    cleanups.push(() => source.stop());
    await source.start();
    const { hash, job } = await found(source, solveCkb, 'CKB');
    node.fork(job.height, 2);
    expect(node.isCanonical(hash)).toBe(false);
    const run = confirmer([{ algorithm: 'eaglesong', nodes: [node.url], payout_lock: CKB_LOCK }]);
    expect((await run()).orphaned).toEqual([hash]);
    expect(await row(hash)).toMatchObject({ status: 'orphaned' });
    expect(await balancesOfSystemAccount(database.db, 'pool:blocks')).toEqual([]);
  });

  it('Kaspa: merged blue, confirmed when the merging block’s coinbase is 1000 DAA old, at its output', async () => {
    const node = await KaspaNodeStandIn.start({ prefix: 'kaspadev' });
    cleanups.push(() => node.close());
    const source = new KaspaJobSource({ nodes: [node.url], payAddress: KAS_ADDRESS });
    cleanups.push(() => source.stop());
    await source.start();
    const { hash, job } = await found(source, solveKaspa, 'KAS');
    const run = confirmer([{ algorithm: 'kheavyhash', nodes: [node.url], pay_address: KAS_ADDRESS }]);

    await run();
    expect(await row(hash)).toMatchObject({ status: 'pending' });
    node.advance(500, false);
    await run();
    expect(await row(hash)).toMatchObject({ status: 'pending' });
    node.advance(501, false);
    expect((await run()).confirmed).toEqual([hash]);
    expect(await balancesOfSystemAccount(database.db, 'pool:blocks')).toEqual([
      { coin: 'KAS', amount: job.coinbaseValue },
    ]);
  });

  it('Kaspa: merged red is orphaned', async () => {
    const node = await KaspaNodeStandIn.start({ prefix: 'kaspadev' });
    cleanups.push(() => node.close());
    const source = new KaspaJobSource({ nodes: [node.url], payAddress: KAS_ADDRESS });
    cleanups.push(() => source.stop());
    await source.start();
    const { hash } = await found(source, solveKaspa, 'KAS');
    node.markRed(hash);
    node.advance(1002, false);
    const run = confirmer([{ algorithm: 'kheavyhash', nodes: [node.url], pay_address: KAS_ADDRESS }]);
    expect((await run()).orphaned).toEqual([hash]);
  });

  it('Kadena: confirmed 10 deep on its own chain; a replaced block and one the node never kept are orphaned', async () => {
    const node = await startChainwebNode();
    cleanups.push(() => node.close());
    const source = new KadenaJobSource({ nodes: [node.url], miner: STAND_IN_MINER });
    cleanups.push(() => source.stop());
    await source.start();
    const { hash, job } = await found(source, solveKadena, 'KDA');
    // A solution the node took (204) and then dropped: no chain knows its hash.
    const unknown = { hash: Buffer.alloc(32, 7).toString('base64url') };
    await recordBlock(database.db, {
      id: uuid(),
      node: 'node-1',
      algorithm: 'blake2s',
      coin: 'KDA',
      height: job.height,
      hash: unknown.hash,
      reward: '1',
      account: 'alice',
      worker: 'rig1',
      difficulty: '1',
      status: 'pending',
      found_at: NOW,
      submit_error: null,
    });
    const run = confirmer([{ algorithm: 'blake2s', nodes: [node.url], chainweb_version: 'mainnet01', miner: MINER }]);

    await run();
    expect(await row(hash)).toMatchObject({ status: 'pending', confirmations: 1 });
    expect(await row(unknown.hash)).toMatchObject({ status: 'pending' });
    // The first round brings the other chains up to the block's chain, which is one ahead.
    node.advanceCut(9);
    await run();
    expect(await row(hash)).toMatchObject({ status: 'pending', confirmations: 9 });
    expect(await row(unknown.hash)).toMatchObject({ status: 'pending' });
    node.advanceCut(1);
    const result = await run();
    expect(result.confirmed).toEqual([hash]);
    expect(result.orphaned).toEqual([unknown.hash]);
    expect(await row(hash)).toMatchObject({ status: 'confirmed', confirmations: 10 });
    expect(await balancesOfSystemAccount(database.db, 'pool:blocks')).toEqual([
      { coin: 'KDA', amount: job.coinbaseValue },
    ]);

    // A second block, replaced on its chain by a longer competing branch.
    await source.stop();
    await source.start();
    const second = await found(source, solveKadena, 'KDA');
    const secondChain = (second.job as KadenaJob).chainId;
    node.orphan(secondChain, second.job.height);
    node.advanceCut(10);
    expect((await run()).orphaned).toEqual([second.hash]);
    expect(await row(second.hash)).toMatchObject({ status: 'orphaned' });
  });
});
