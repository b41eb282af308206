/**
 * Issue 29's acceptance for solo mining, end to end on litecoind -regtest: a stratum node with a
 * standard (PPS) port and a solo port over a DaemonJobSource, the in-process bus into the share
 * consumers (PPS credit, solo fee 1.5 % to prove it is not the default), our stratum client mining
 * as two accounts. alice mines on the solo port, bob on the standard port; on regtest a share can be
 * a block, and the test picks which are. alice's one block is recorded solo with the fee in force and
 * closes only her own solo round; bob's block closes the pool's round, which never held alice's work;
 * bob's PPS credits are Σ difficulty × reward ÷ network difficulty less the pool fee, alice has none.
 * After 100 blocks on top and two runs of the confirmations job alice is credited the block's coinbase
 * value (read from litecoind) less the solo fee, once, and the ledger reconciles.
 */
import {
  type BitcoinJob,
  DaemonJobSource,
  exactDecimalFetch,
  NETWORKS,
  prevHashToNotify,
  RpcClient,
} from '@lodestone/chain';
import { type LitecoinRegtest, startLitecoinRegtest } from '@lodestone/chain/testing';
import {
  type Account,
  balancesOfAccount,
  balancesOfSystemAccount,
  type Database,
  reconcileLedger,
  savePrices,
} from '@lodestone/db';
import { createTestDatabase, insertTestAccount } from '@lodestone/db/testing';
import { amountToUnits, Exact, type FoundBlock, type ShareBatch } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../bus/inProcess.js';
import type { Unsubscribe } from '../bus/types.js';
import { bitcoinWork } from '../chains/bitcoin/index.js';
import { minedTickers, parseConfig } from '../config/config.js';
import { startShareConsumers } from '../jobs/accounting.js';
import { daemonBlockStatus, runBlockConfirmations } from '../jobs/blockConfirmations.js';
import { recordingLog } from '../jobs/testing.js';
import { type FoundShare, findShare } from './client/miner.js';
import { StratumClient } from './client/stratumClient.js';
import type { NotifyJob } from './client/work.js';
import { SILENT_LOG } from './log.js';
import type { ListenerKind } from './session.js';
import { type StratumServer, startStratum } from './startStratum.js';

const pow = POW.scrypt;
/** How long the test waits on sockets, litecoind, the bus and the database, and how often it looks. */
const overTheWire = { timeout: 20_000, interval: 20 };
const TIMEOUT = 120_000;
/** The pool fee (PPS) and the solo fee, in percent: neither is a default. */
const POOL_FEE = 2;
const SOLO_FEE = 1.5;
const SOLO_LOGIN = 'alice.rig1';
const POOL_LOGIN = 'bob.rig1';

/** The bus the consumers read, keeping a copy of every batch and block the stratum node published. */
class TappedBus extends InProcessBus {
  readonly batches: ShareBatch[] = [];
  readonly blocks: FoundBlock[] = [];
  override publishShareBatch(batch: ShareBatch): Promise<void> {
    this.batches.push(structuredClone(batch));
    return super.publishShareBatch(batch);
  }
  override publishFoundBlock(block: FoundBlock): Promise<void> {
    this.blocks.push(structuredClone(block));
    return super.publishFoundBlock(block);
  }
}

/** The target a miner reads from the notify's nbits (compact encoding). */
function targetFromBits(bits: number): bigint {
  return BigInt(bits & 0x007fffff) << BigInt(8 * ((bits >>> 24) - 3));
}

interface CoinbaseJson {
  tx: { vout: { value: string }[] }[];
}

describe('solo mining on litecoind -regtest: the finder is credited its block less the solo fee', () => {
  let net: LitecoinRegtest;
  let source: DaemonJobSource;
  let database: Database;
  let bus: TappedBus;
  const consumerLog = recordingLog();
  let stopConsumers: Unsubscribe | undefined;
  let server: StratumServer;
  let alice: Account;
  let bob: Account;
  let soloClient: StratumClient;
  let poolClient: StratumClient;
  /** litecoind with exact decimals (amounts as text), for the coinbase values. */
  let exact: RpcClient;
  /** Share difficulties of the two ports: below the network's, so a share may or may not be a block. */
  let soloDifficulty: number;
  let poolDifficulty: number;

  beforeAll(async () => {
    [net, database] = await Promise.all([startLitecoinRegtest(), createTestDatabase()]);
    exact = new RpcClient({ url: net.miner.rpcUrl, fetch: exactDecimalFetch() });
    alice = await insertTestAccount(database.db, 'alice');
    bob = await insertTestAccount(database.db, 'bob');
    await savePrices(database.db, { source: 'test', takenAt: new Date(), quotes: [{ ticker: 'LTC', usd: '80' }] });
    source = new DaemonJobSource({
      coin: 'LTC',
      algorithm: 'scrypt',
      daemons: [net.miner.rpcUrl, net.peer.rpcUrl],
      poolAddress: net.poolAddress,
      network: NETWORKS['litecoin-regtest'],
      pollIntervalMs: 100,
      poolTag: '/lodestone/',
    });
    await source.start();
    bus = new TappedBus({ retryBackoffMs: 5 });
    stopConsumers = await startShareConsumers({
      bus,
      db: database.db,
      log: consumerLog,
      credit: { feePercent: POOL_FEE, soloFeePercent: SOLO_FEE, priceMaxAgeMs: 3_600_000 },
    });
    const networkTarget = source.current()?.networkTarget;
    if (networkTarget === undefined) throw new Error('no job from litecoind');
    // Regtest's target is about 2^255: with these share targets 60 % and 75 % of the shares are blocks.
    const networkDifficulty = pow.difficultyForTarget(networkTarget);
    soloDifficulty = networkDifficulty * 0.6;
    poolDifficulty = networkDifficulty * 0.75;
    const port = (kind: ListenerKind, difficulty: number) => ({
      algorithm: 'scrypt' as const,
      host: '127.0.0.1',
      port: 0,
      kind,
      minDifficulty: difficulty,
      startDifficulty: difficulty,
      maxDifficulty: difficulty,
    });
    server = await startStratum({
      node: 'solo-test',
      listeners: [port('standard', poolDifficulty), port('solo', soloDifficulty)],
      work: [bitcoinWork(source)],
      bus,
      log: SILENT_LOG,
      // Batches go out when the test flushes, so it knows which shares each holds.
      flushIntervalMs: 600_000,
    });
    const connect = async (kind: ListenerKind, login: string) => {
      const listener = server.listeners.find((l) => l.kind === kind);
      const client = await StratumClient.connect({ host: '127.0.0.1', port: listener?.port ?? 0, timeoutMs: 20_000 });
      expect((await client.subscribe('lodestone-solo-test/1.0')).error).toBeNull();
      expect((await client.authorize(login)).result).toBe(true);
      return client;
    };
    soloClient = await connect('solo', SOLO_LOGIN);
    poolClient = await connect('standard', POOL_LOGIN);
  }, TIMEOUT);

  afterAll(async () => {
    soloClient?.destroy();
    poolClient?.destroy();
    await server?.stop();
    await source?.stop();
    await stopConsumers?.();
    await bus?.close();
    await Promise.all([net?.stop(), database?.close()]);
  });

  /** The client's notify of the source's current job (the pool's job ids are per session). */
  const currentNotify = (client: StratumClient, job: BitcoinJob) =>
    client.nextJob(
      (n) => n.prevHash === job.prevHashNotify && n.coinbase1 === job.coinbase1 && n.coinbase2 === job.coinbase2,
    );

  /**
   * Grinds shares at the session's difficulty until one is (or, with `block: false`, is not) below
   * the network target the notify's nbits give; submits it and expects it accepted.
   */
  async function submitShare(client: StratumClient, login: string, notify: NotifyJob, block: boolean) {
    const difficulty = client.difficulty;
    if (difficulty === undefined) throw new Error('no mining.set_difficulty');
    const networkTarget = targetFromBits(notify.bits);
    const work = { job: notify, extranonce1: client.extranonce1, extranonce2Size: client.extranonce2Size, difficulty };
    for (let attempt = 0; attempt < 200; attempt++) {
      const share = findShare(work, pow, { maxHashes: 1000 });
      if (share && share.hashValue <= networkTarget === block) {
        const reply = await client.submit({ worker: login, ...share });
        expect(reply).toMatchObject({ result: true, error: null });
        return share;
      }
    }
    throw new Error(`no share ${block ? 'below' : 'above'} the network target`);
  }

  const blockRow = (hash: string) =>
    database.db.selectFrom('blocks').selectAll().where('hash', '=', hash).executeTakeFirst();
  const soloRound = () =>
    database.db
      .selectFrom('solo_rounds')
      .selectAll()
      .where('account', '=', 'alice')
      .where('coin', '=', 'LTC')
      .executeTakeFirst();
  const poolRound = () =>
    database.db.selectFrom('block_rounds').selectAll().where('coin', '=', 'LTC').executeTakeFirst();
  /** Every ledger leg with its transaction's key and kind and its ledger account. */
  const ledger = () =>
    database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.ledger_account_id')
      .select([
        't.idempotency_key as key',
        't.kind as transactionKind',
        'e.kind',
        'e.coin',
        'e.amount',
        'a.account_id as accountId',
        'a.system_name as system',
      ])
      .orderBy('e.id')
      .execute();
  /** The coinbase value of a block as litecoind reads it: Σ its outputs, in litoshi. */
  const coinbaseValue = async (hash: string) => {
    const block = (await exact.call('getblock', [hash, 2])) as CoinbaseJson;
    return (block.tx[0]?.vout ?? []).reduce((sum, out) => sum + amountToUnits(out.value, 8), 0n);
  };

  let soloHash: string;
  let poolHash: string;
  /** The difficulty each of alice's shares achieved, in order. */
  const achieved: number[] = [];

  it(
    'records the solo block as the finder’s, closing only her solo round; the pool’s block closes the pool’s',
    async () => {
      // Both miners' first shares are not blocks: the batch puts alice's work in her solo round and
      // bob's in the pool's round.
      const first = source.current() as BitcoinJob;
      const soloNotify = await currentNotify(soloClient, first);
      const poolNotify = await currentNotify(poolClient, first);
      const tip = await net.miner.rpc.getBlockCount();
      achieved.push(pow.difficultyForTarget((await submitShare(soloClient, SOLO_LOGIN, soloNotify, false)).hashValue));
      await submitShare(poolClient, POOL_LOGIN, poolNotify, false);
      await server.flush();
      await vi.waitFor(async () => expect(await soloRound()).toBeDefined(), overTheWire);
      expect(Number((await soloRound())?.accepted_difficulty)).toBe(soloDifficulty);
      expect(Number((await poolRound())?.accepted_difficulty)).toBe(poolDifficulty);
      expect(await net.miner.rpc.getBlockCount()).toBe(tip);

      // alice's next share is a block: hers, solo, at the fee in force; it closes her round only.
      const soloShare: FoundShare = await submitShare(soloClient, SOLO_LOGIN, soloNotify, true);
      achieved.push(pow.difficultyForTarget(soloShare.hashValue));
      await vi.waitFor(async () => expect(await net.miner.rpc.getBlockCount()).toBe(tip + 1), overTheWire);
      soloHash = await net.miner.rpc.getBestBlockHash();
      const solo = await vi.waitFor(async () => {
        const row = await blockRow(soloHash);
        expect(row, 'the solo block recorded').toBeDefined();
        return row;
      }, overTheWire);
      expect(solo).toMatchObject({
        account: 'alice',
        worker: 'rig1',
        coin: 'LTC',
        height: BigInt(tip + 1),
        status: 'pending',
        solo: true,
        solo_fee_percent: String(SOLO_FEE),
      });
      // Her block's effort is her own work since her last block: her first share.
      expect(Number(solo?.round_difficulty)).toBe(soloDifficulty);
      const reset = await soloRound();
      expect(reset).toMatchObject({ best_difficulty: null, best_at: null, started_at: solo?.found_at });
      expect(Number(reset?.accepted_difficulty)).toBe(0);
      // The pool's round goes on: a solo block is not the pool's.
      expect(Number((await poolRound())?.accepted_difficulty)).toBe(poolDifficulty);

      // bob's next share, on the job over alice's block, is a pool block: it closes the pool's round.
      const second = await vi.waitFor(() => {
        const job = source.current() as BitcoinJob;
        expect(job.prevHashNotify).toBe(prevHashToNotify(soloHash));
        return job;
      }, overTheWire);
      await submitShare(poolClient, POOL_LOGIN, await currentNotify(poolClient, second), true);
      await vi.waitFor(async () => expect(await net.miner.rpc.getBlockCount()).toBe(tip + 2), overTheWire);
      poolHash = await net.miner.rpc.getBestBlockHash();
      const pool = await vi.waitFor(async () => {
        const row = await blockRow(poolHash);
        expect(row, 'the pool block recorded').toBeDefined();
        return row;
      }, overTheWire);
      expect(pool).toMatchObject({ account: 'bob', status: 'pending', solo: false, solo_fee_percent: null });
      expect(Number(pool?.round_difficulty)).toBe(poolDifficulty);
      expect(Number((await poolRound())?.accepted_difficulty)).toBe(0);

      // The block shares' batch: alice's goes to her new round, bob's to the pool's. A share that found a
      // block is that block, no best share: her new round has none yet.
      await server.flush();
      await vi.waitFor(
        async () => expect(Number((await poolRound())?.accepted_difficulty)).toBe(poolDifficulty),
        overTheWire,
      );
      const round = await soloRound();
      expect(Number(round?.accepted_difficulty)).toBe(soloDifficulty);
      expect(round).toMatchObject({ best_difficulty: null, best_at: null });

      // Two workers named rig1: alice's on the solo port with her best share ever (the one that was not
      // a block), bob's on the pool's.
      const workers = await database.db
        .selectFrom('workers')
        .select(['account', 'name', 'solo', 'best_difficulty', 'best_difficulty_at', 'total_accepted_difficulty'])
        .orderBy('account')
        .execute();
      expect(workers.map((w) => [w.account, w.name, w.solo])).toEqual([
        ['alice', 'rig1', true],
        ['bob', 'rig1', false],
      ]);
      const [soloWorker, poolWorker] = workers;
      expect(Number(soloWorker?.best_difficulty)).toBe(achieved[0]);
      expect(achieved[1]).toBeGreaterThan(achieved[0] as number);
      expect(soloWorker?.best_difficulty_at).toBeInstanceOf(Date);
      expect(Number(soloWorker?.total_accepted_difficulty)).toBe(2 * soloDifficulty);
      expect(poolWorker).toMatchObject({ best_difficulty: null, best_difficulty_at: null });
      expect(Number(poolWorker?.total_accepted_difficulty)).toBe(2 * poolDifficulty);
    },
    TIMEOUT,
  );

  it(
    'credits bob by PPS for his shares as if alice were not there, and alice nothing by PPS',
    async () => {
      // By hand from the batches bob's shares made: Σ difficulty × reward ÷ network difficulty, less the fee.
      let gross = Exact.ZERO;
      for (const batch of bus.batches) {
        for (const w of batch.workers) {
          expect(w.account, 'only pool ports’ workers are in `workers`').toBe('bob');
          if (!batch.network) throw new Error('a batch of bob’s shares without its network');
          gross = gross.plus(
            Exact.of(w.acceptedDifficulty).times(batch.network.reward).dividedBy(batch.network.difficulty, 30),
          );
        }
        for (const w of batch.soloWorkers ?? []) expect(w.account).toBe('alice');
      }
      // bob's two accepted shares (one a block), in the two batches the test flushed.
      expect(bus.batches.flatMap((b) => b.workers).reduce((n, w) => n + w.valid, 0)).toBe(2);
      expect(gross.isZero()).toBe(false);
      const net = gross.times(Exact.ONE.minus(Exact.of(POOL_FEE).shifted(-2)));
      const entries = await ledger();
      const pps = (accountId: bigint) =>
        entries.filter((e) => e.kind === 'pps' && e.accountId === accountId).reduce((s, e) => s + BigInt(e.amount), 0n);
      // Whole litoshi are credited, the fraction carried (below one).
      const credited = pps(bob.id);
      expect(net.minus(Exact.of(credited)).isNegative()).toBe(false);
      expect(net.minus(Exact.of(credited)).compare(1)).toBe(-1);
      expect(entries.filter((e) => e.accountId === alice.id)).toEqual([]);
      expect(
        await database.db.selectFrom('pps_credits').select('batch_id').where('account_id', '=', alice.id).execute(),
      ).toEqual([]);
      expect(await reconcileLedger(database.db)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'at maturity credits alice her block’s coinbase value less the solo fee, once',
    async () => {
      const coins = parseConfig({
        COINS: JSON.stringify([
          { ticker: 'LTC', algorithm: 'scrypt', daemons: [net.miner.rpcUrl], pool_address: net.poolAddress },
        ]),
      }).coins;
      const deps = {
        db: database.db,
        minedCoins: minedTickers(coins),
        statusOf: daemonBlockStatus(coins),
        log: recordingLog(),
      };
      // Not mature yet: confirmations are counted, nothing is credited.
      const early = await runBlockConfirmations(deps, new Date());
      expect(early.confirmed).toEqual([]);
      expect((await ledger()).filter((e) => e.key === `solo:${soloHash}`)).toEqual([]);

      await net.generate(100);
      const first = await runBlockConfirmations(deps, new Date());
      expect(first.confirmed.sort()).toEqual([soloHash, poolHash].sort());
      const afterFirst = await ledger();
      const second = await runBlockConfirmations(deps, new Date());
      expect(second).toEqual({ confirmed: [], orphaned: [], updated: [] });
      expect(await ledger()).toEqual(afterFirst);

      // R as litecoind has it; the finder's part computed here: ⌊R × (1 − 1.5 %)⌋.
      const reward = await coinbaseValue(soloHash);
      expect(reward).toBeGreaterThan(0n);
      const owner = (reward * (1000n - 15n)) / 1000n;
      const soloLegs = afterFirst.filter((e) => e.key === `solo:${soloHash}`);
      expect(
        await database.db
          .selectFrom('ledger_transactions')
          .select('kind')
          .where('idempotency_key', '=', `solo:${soloHash}`)
          .execute(),
      ).toEqual([{ kind: 'solo_reward' }]);
      expect(soloLegs.map((e) => [e.system ?? e.accountId, e.kind, BigInt(e.amount)])).toEqual([
        ['pool:solo', 'solo_expense', -reward],
        [alice.id, 'solo_reward', owner],
        ['pool:fees', 'fee', reward - owner],
      ]);
      expect(await balancesOfAccount(database.db, alice.id)).toEqual([{ coin: 'LTC', amount: owner }]);
      expect(await balancesOfSystemAccount(database.db, 'pool:solo')).toEqual([{ coin: 'LTC', amount: -reward }]);
      // bob found a pool block: nothing solo for him; the pool's wallet received both blocks.
      expect(afterFirst.filter((e) => e.accountId === bob.id).map((e) => e.kind)).not.toContain('solo_reward');
      expect(afterFirst.filter((e) => e.key === `solo:${poolHash}`)).toEqual([]);
      const poolReward = await coinbaseValue(poolHash);
      expect(await balancesOfSystemAccount(database.db, 'pool:blocks')).toEqual([
        { coin: 'LTC', amount: reward + poolReward },
      ]);
      const rows = await database.db
        .selectFrom('blocks')
        .select(['hash', 'status', 'reward'])
        .orderBy('height')
        .execute();
      expect(rows).toEqual([
        { hash: soloHash, status: 'confirmed', reward: String(reward) },
        { hash: poolHash, status: 'confirmed', reward: String(poolReward) },
      ]);

      // alice's found block delivered again after maturity changes nothing.
      const found = bus.blocks.filter((b) => b.hash === soloHash);
      expect(found).toMatchObject([{ account: 'alice', solo: true, submitResult: { accepted: true } }]);
      const redelivered = () =>
        consumerLog.entries.filter(
          (e) => e.message === 'block already recorded' && (e.fields as { hash?: string }).hash === soloHash,
        );
      expect(redelivered()).toEqual([]);
      await bus.publishFoundBlock(found[0] as FoundBlock);
      await vi.waitFor(() => expect(redelivered()).toHaveLength(1), overTheWire);
      expect(await ledger()).toEqual(afterFirst);
      expect((await blockRow(soloHash))?.status).toBe('confirmed');
      expect(await reconcileLedger(database.db)).toEqual([]);
    },
    TIMEOUT,
  );
});
