/**
 * Issue 34's acceptance, end to end on the SCRYPT port: litecoind -regtest is the real parent, two
 * stand-in aux daemons (Dogecoin's chain id 98, Bellscoin's 16; each checks AuxPoW proofs with its own
 * code) give aux blocks, our stratum server serves the merge-mined jobs and our stratum client mines.
 * One share solves all three chains: litecoind takes the block with the commitment in its coinbase,
 * each stand-in takes the pool's proof, the three found blocks are recorded once each, and the share's
 * PPS credit is the hand-computed sum over the three chains; the ledger reconciles.
 */
import { AuxChainSource, BitcoinWallet, DaemonJobSource, MergedMining, NETWORKS, p2pkhAddress } from '@lodestone/chain';
import { type AuxDaemon, type LitecoinRegtest, startAuxDaemon, startLitecoinRegtest } from '@lodestone/chain/testing';
import {
  balancesOfAccount,
  type Database,
  insertAccount,
  insertUser,
  reconcileLedger,
  savePrices,
} from '@lodestone/db';
import { createTestDatabase, insertedRow, seedBalance, seedPayoutSettings } from '@lodestone/db/testing';
import { Exact, networkDifficulty, type ShareBatch } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { minedTickers, parseConfig } from '../config/config.js';
import { applyShareBatch, recordFoundBlock } from '../jobs/accounting.js';
import { daemonBlockStatus, runBlockConfirmations } from '../jobs/blockConfirmations.js';
import { runPayouts } from '../jobs/payouts/run.js';
import { recordingLog } from '../jobs/testing.js';
import { findShare } from './client/miner.js';
import type { StratumClient } from './client/stratumClient.js';
import type { StratumServer } from './startStratum.js';
import { RecordingBus, startBlockMining } from './testing/harness.js';

const overTheWire = { timeout: 20_000, interval: 20 };
const LOGIN = 'acct.rig1';
const TIMEOUT = 120_000;
const REGTEST = NETWORKS['bitcoin-regtest'];

describe('merged mining through the SCRYPT port on litecoind -regtest and two aux daemons', () => {
  let net: LitecoinRegtest;
  let doge: AuxDaemon;
  let bells: AuxDaemon;
  let source: DaemonJobSource;
  let server: StratumServer;
  let bus: RecordingBus;
  let client: StratumClient;
  let database: Database;
  let account: bigint;
  let dogePoolAddress: string;

  beforeAll(async () => {
    [net, doge, bells, database] = await Promise.all([
      startLitecoinRegtest(),
      startAuxDaemon({ coin: 'DOGE', chainId: 98 }),
      startAuxDaemon({ coin: 'BELLS', chainId: 16, subsidy: 1_500_000_000n, namecoinApi: true }),
      createTestDatabase(),
    ]);
    const user = insertedRow(await insertUser(database.db, { email: 'merged@example.org', passwordHash: null }));
    account = insertedRow(
      await insertAccount(database.db, {
        userId: user.id,
        username: 'acct',
        apiKey: 'api-acct',
        observerKey: 'obs-acct',
        referralCode: 'ACCT',
      }),
    ).id;
    // Dogecoin's blocks pay the aux daemon's own wallet, which then pays DOGE payouts.
    dogePoolAddress = doge.walletAddress();
    const chain = (coin: string, chainId: number, node: AuxDaemon, payoutAddress: string) =>
      new AuxChainSource({ coin, chainId, daemons: [node.url()], payoutAddress, pollIntervalMs: 50 });
    source = new DaemonJobSource({
      coin: 'LTC',
      algorithm: 'scrypt',
      daemons: [net.miner.rpcUrl],
      poolAddress: net.poolAddress,
      network: NETWORKS['litecoin-regtest'],
      rules: ['mweb', 'segwit'],
      pollIntervalMs: 100,
      merged: new MergedMining([
        chain('DOGE', 98, doge, dogePoolAddress),
        chain('BELLS', 16, bells, p2pkhAddress(Buffer.alloc(20, 0xbe), REGTEST)),
      ]),
    });
    await source.start();
    bus = new RecordingBus();
    ({ server, client } = await startBlockMining({
      node: 'merged-test',
      algorithm: 'scrypt',
      source,
      bus,
      login: LOGIN,
      agent: 'lodestone-merged-test/1.0',
    }));
  }, TIMEOUT);

  afterAll(async () => {
    client?.destroy();
    await server?.stop();
    await source?.stop();
    await Promise.all([net?.stop(), doge?.close(), bells?.close(), database?.close()]);
  });

  it(
    'mines one share into a block of each chain, records each once and credits the sum of the three',
    async () => {
      const job = source.current();
      if (!job?.merged) throw new Error('no merge-mined job');
      const notify = await client.nextJob((n) => n.coinbase1 === job.coinbase1 && n.coinbase2 === job.coinbase2);
      const difficulty = client.difficulty;
      if (difficulty === undefined) throw new Error('no mining.set_difficulty');
      // The session's difficulty is the network's: the first share found solves the parent block.
      const work = {
        job: notify,
        extranonce1: client.extranonce1,
        extranonce2Size: client.extranonce2Size,
        difficulty,
      };
      const share = findShare(work, POW.scrypt, { maxHashes: 100_000 });
      if (!share) throw new Error('no share');
      expect(share.hashValue <= job.networkTarget).toBe(true);
      for (const chain of job.merged.chains) expect(share.hashValue <= chain.target).toBe(true);
      const reply = await client.submit({ worker: LOGIN, ...share });
      expect(reply).toMatchObject({ result: true, error: null });

      await vi.waitFor(() => expect(bus.blocks).toHaveLength(3), overTheWire);
      const found = bus.blocks;
      const [dogeWork, bellsWork] = job.merged.chains;
      expect(found.map((b) => [b.coin, b.height, b.reward, b.submitResult]).sort()).toEqual(
        [
          ['BELLS', bellsWork?.height, '1500000000', { accepted: true }],
          ['DOGE', dogeWork?.height, '1000000000000', { accepted: true }],
          ['LTC', job.height, job.coinbaseValue.toString(), { accepted: true }],
        ].sort(),
      );
      // Each block names the difficulty of the target it met, its own chain's (its effort is measured against it).
      const difficultyOf = (target: bigint) => networkDifficulty(target, POW.scrypt.hashesPerDifficulty);
      expect(Object.fromEntries(found.map((b) => [b.coin, b.networkDifficulty]))).toEqual({
        LTC: difficultyOf(job.networkTarget),
        DOGE: dogeWork && difficultyOf(dogeWork.target),
        BELLS: bellsWork && difficultyOf(bellsWork.target),
      });
      // Each chain has it: litecoind as its tip, with the commitment in the coinbase; each stand-in accepted the proof.
      const ltc = found.find((b) => b.coin === 'LTC');
      expect(await net.miner.rpc.getBestBlockHash()).toBe(ltc?.hash);
      const block = (await net.miner.client.call('getblock', [ltc?.hash, 2])) as {
        tx: { vin: { coinbase: string }[] }[];
      };
      expect(block.tx[0]?.vin[0]?.coinbase).toContain(job.merged.commitment.toString('hex'));
      expect(doge.accepted().map((b) => b.hash)).toEqual([dogeWork?.hash]);
      expect(bells.accepted().map((b) => b.hash)).toEqual([bellsWork?.hash]);
      expect(found.find((b) => b.coin === 'DOGE')?.hash).toBe(dogeWork?.hash);

      // Recorded once each, however often they are reported.
      for (const b of [...found, ...found]) await recordFoundBlock(database.db, b);
      const rows = await database.db.selectFrom('blocks').select(['coin', 'hash', 'status']).orderBy('coin').execute();
      expect(rows.map((r) => [r.coin, r.hash])).toEqual([
        ['BELLS', bellsWork?.hash],
        ['DOGE', dogeWork?.hash],
        ['LTC', ltc?.hash],
      ]);

      // The batch carries the three networks; the credit is the sum over them, each converted to LTC.
      await server.flush();
      const batch = await vi.waitFor(() => {
        const withShare = bus.batches.find((b) => b.workers.some((w) => w.account === 'acct' && w.valid > 0));
        expect(withShare, 'the share batch on the bus').toBeDefined();
        return withShare as ShareBatch;
      }, overTheWire);
      expect(batch.network?.coin).toBe('LTC');
      expect(batch.merged?.map((n) => n.coin)).toEqual(['DOGE', 'BELLS']);
      const now = new Date(batch.intervalEnd);
      await savePrices(database.db, {
        source: 'test',
        takenAt: now,
        quotes: [
          { ticker: 'LTC', usd: '80' },
          { ticker: 'BTC', usd: '100000' },
          { ticker: 'DOGE', usd: '0.4' },
          { ticker: 'BELLS', usd: '0.8' },
        ],
      });
      expect(
        await applyShareBatch(database.db, batch, { feePercent: 0, priceMaxAgeMs: 60_000, now: () => now }),
      ).toEqual({
        applied: true,
        credit: { kind: 'credited' },
      });
      // By hand: difficulty × reward ÷ network difficulty per chain, in dollars, then litoshi at $80.
      const accepted = Exact.of(batch.workers.find((w) => w.account === 'acct')?.acceptedDifficulty ?? 0);
      const usd = [
        [batch.network, '80'],
        [batch.merged?.[0], '0.4'],
        [batch.merged?.[1], '0.8'],
      ].reduce((sum, [network, price]) => {
        if (typeof network !== 'object' || network === undefined) throw new Error('network missing');
        const coins = accepted.times(network.reward).dividedBy(network.difficulty, 30).shifted(-8);
        return sum.plus(coins.times(price as string));
      }, Exact.ZERO);
      const litoshi = usd.dividedBy(80, 30).shifted(8);
      const credited = (await balancesOfAccount(database.db, account)).find((b) => b.coin === 'LTC')?.amount ?? 0n;
      // Whole units are credited; the fraction is carried (below one litoshi).
      expect(Exact.of(credited).isZero()).toBe(false);
      expect(litoshi.minus(Exact.of(credited)).isNegative()).toBe(false);
      expect(litoshi.minus(Exact.of(credited)).minus(Exact.ONE).isNegative()).toBe(true);
      expect(await reconcileLedger(database.db)).toEqual([]);
    },
    TIMEOUT,
  );
  it(
    "matures the Dogecoin block on its own daemon and pays a DOGE payout from that daemon's wallet",
    async () => {
      const dogeBlock = bus.blocks.find((b) => b.coin === 'DOGE');
      if (!dogeBlock) throw new Error('the first test found no DOGE block');
      // The pool's configuration as an operator writes it (COINS), read by the pool's own parser.
      const { coins } = parseConfig({
        COINS: JSON.stringify([
          {
            ticker: 'LTC',
            algorithm: 'scrypt',
            daemons: [net.miner.rpcUrl],
            pool_address: net.poolAddress,
            rules: ['mweb', 'segwit'],
            // Dogecoin regtest's maturity (mainnet: 240, the default for chain id 98).
            merged: [
              {
                ticker: 'DOGE',
                chain_id: 98,
                daemons: [doge.url()],
                pool_address: dogePoolAddress,
                coinbase_maturity: 60,
              },
            ],
          },
        ]),
      });
      // Other miners extend Dogecoin past its coinbase maturity (60 on regtest, spendable at 61).
      doge.mineElsewhere(61);
      const statusOf = daemonBlockStatus(coins);
      const confirmed = await runBlockConfirmations(
        { db: database.db, minedCoins: minedTickers(coins), statusOf, log: recordingLog() },
        new Date(),
      );
      expect(confirmed.confirmed).toContain(dogeBlock.hash);
      const row = await database.db
        .selectFrom('blocks')
        .select('status')
        .where('hash', '=', dogeBlock.hash)
        .executeTakeFirst();
      expect(row?.status).toBe('confirmed');

      // The wallet holds what the pool mined: the aux block's coinbase, now mature.
      const wallet = new BitcoinWallet({ coin: 'DOGE', decimals: 8, rpcUrl: doge.url() });
      expect(await wallet.balance()).toBe(BigInt(dogeBlock.reward));

      // A miner is owed 1,234.56789012 DOGE; the payout goes out of the aux daemon's wallet.
      const payTo = p2pkhAddress(Buffer.alloc(20, 0x77), REGTEST);
      await seedBalance(database.db, account, 'DOGE', 123_456_789_012n);
      await seedPayoutSettings(database.db, account, 'DOGE', [[payTo, '100']]);
      const hot = new Map([['DOGE', { wallet, minBalance: 0n }]]);
      const result = await runPayouts({ db: database.db, wallets: hot, log: recordingLog() }, new Date());
      expect(result.sent).toHaveLength(1);
      const payout = await database.db
        .selectFrom('payouts')
        .selectAll()
        .where('coin', '=', 'DOGE')
        .executeTakeFirstOrThrow();
      expect(payout).toMatchObject({ status: 'sent', total: '123456789012' });
      const paid = doge.payments().find((p) => p.txid === payout.txid);
      expect(paid?.outputs).toEqual([{ address: payTo, amount: 123_456_789_012n }]);
      expect(await wallet.balance()).toBe(BigInt(dogeBlock.reward) - 123_456_789_012n - BigInt(payout.fee ?? '0'));
      expect(await reconcileLedger(database.db)).toEqual([]);
    },
    TIMEOUT,
  );
});
