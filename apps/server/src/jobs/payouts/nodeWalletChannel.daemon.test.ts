import { BitcoinWallet, exactDecimalFetch, RpcClient, unitsToDecimal } from '@lodestone/chain';
import { type LitecoinRegtest, startLitecoinRegtest } from '@lodestone/chain/testing';
import {
  balancesOfAccount,
  balancesOfSystemAccount,
  type Database,
  type Executor,
  type Payout,
  payoutItems,
  reconcileLedger,
  recordBlock,
} from '@lodestone/db';
import { createTestDatabase, insertTestAccount, seedBalance, seedPayoutSettings } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonBlockStatus, runBlockConfirmations } from '../blockConfirmations.js';
import { recordingLog } from '../testing.js';
import type { HotWallet } from '../wallets/wallets.js';
import { PAYOUT_SENDING_GRACE_MS } from './nodeWalletChannel.js';
import { runPayouts } from './run.js';
import { PAYOUT_FAILURE, PayoutRunAborted, type PayoutStep } from './steps.js';

/**
 * The payout job against a real wallet: litecoind -regtest, the miner node's wallet as the pool's hot
 * wallet, the peer node's wallet holding the miners' payout addresses. Whatever the job records must
 * match what the chain says, to the unit, and a crash at any step must leave exactly one transaction.
 */

interface ListedEntry {
  txid: string;
  category: string;
  comment?: string;
  address?: string;
  amount: string;
}

const HOUR = 3_600_000;
const START = new Date('2024-05-06T00:00:00Z');
const at = (hours: number, ms = 0) => new Date(START.getTime() + hours * HOUR + ms);

describe('payouts through litecoind -regtest', () => {
  let net: LitecoinRegtest;
  let database: Database;
  let hot: Map<string, HotWallet>;
  /** Amounts read as the daemons' own decimal text. */
  let minerWallet: RpcClient;
  let peerWallet: RpcClient;
  const log = recordingLog();
  const accounts: { id: bigint; addresses: string[] }[] = [];

  beforeAll(async () => {
    net = await startLitecoinRegtest();
    // 100 blocks until a coinbase matures: this leaves the miner's wallet two spendable rewards.
    await net.generate(101);
    await net.peer.client.call('createwallet', ['miners']);
    const minerWalletUrl = `${net.miner.rpcUrl}wallet/pool`;
    minerWallet = new RpcClient({ url: minerWalletUrl, fetch: exactDecimalFetch() });
    peerWallet = new RpcClient({ url: net.peer.rpcUrl, fetch: exactDecimalFetch() });
    hot = new Map([
      [
        'LTC',
        { wallet: new BitcoinWallet({ coin: 'LTC', decimals: 8, rpcUrl: minerWalletUrl }), minBalance: 100_000_000n },
      ],
    ]);

    database = await createTestDatabase();
    const db = database.db;
    // Three miners: one paid to one address, one split 60/40 over two, one to one.
    for (const [name, proportions] of [
      ['alice', ['100']],
      ['bob', ['60', '40']],
      ['carol', ['100']],
    ] as const) {
      const account = await insertTestAccount(db, name);
      const addresses: string[] = [];
      for (const _ of proportions)
        addresses.push((await net.peer.client.call('getnewaddress', ['', 'bech32'])) as string);
      await seedPayoutSettings(
        db,
        account.id,
        'LTC',
        addresses.map((address, position) => [address, proportions[position] as string] as const),
      );
      accounts.push({ id: account.id, addresses });
    }
  });

  afterAll(async () => {
    await database?.close();
    await net?.stop();
  });

  /** Credits each account the given units of LTC. */
  async function credit(db: Executor, amounts: bigint[]): Promise<void> {
    for (const [i, amount] of amounts.entries()) await seedBalance(db, accounts[i]?.id as bigint, 'LTC', amount);
  }

  const run = (now: Date, hooks = {}) => runPayouts({ db: database.db, wallets: hot, log }, now, hooks);
  const payouts = () => database.db.selectFrom('payouts').selectAll().orderBy('id').execute();
  const balancesOf = async () =>
    Promise.all(
      accounts.map(
        async (a) => (await balancesOfAccount(database.db, a.id)).find((b) => b.coin === 'LTC')?.amount ?? 0n,
      ),
    );

  /** The miner wallet's distinct transactions whose comment is `key` (sendmany lists one entry per output). */
  async function walletTransactionsWithComment(key: string): Promise<string[]> {
    const entries = (await minerWallet.call('listtransactions', ['*', 1000, 0])) as ListedEntry[];
    return [...new Set(entries.filter((e) => e.category === 'send' && e.comment === key).map((e) => e.txid))];
  }

  /** Each sent payout is exactly one wallet transaction with its key, paying exactly its items. */
  async function expectPayoutsMatchTheChain(list: Payout[]): Promise<void> {
    for (const p of list) {
      const txids = await walletTransactionsWithComment(p.idempotency_key);
      if (p.status !== 'sent') {
        expect(txids).toEqual([]);
        continue;
      }
      expect(txids).toEqual([p.txid]);
      const tx = (await minerWallet.call('gettransaction', [p.txid])) as {
        fee: string;
        comment: string;
        details: { category: string; address: string; amount: string }[];
      };
      expect(tx.comment).toBe(p.idempotency_key);
      expect(tx.fee).toBe(`-${unitsToDecimal(BigInt(p.fee as string), 8)}`);
      const paid = tx.details
        .filter((d) => d.category === 'send')
        .map((d) => ({ address: d.address, amount: d.amount }))
        .sort((a, b) => a.address.localeCompare(b.address));
      const items = (await payoutItems(database.db, p.id))
        .map((i) => ({ address: i.address, amount: `-${unitsToDecimal(i.amount, 8)}` }))
        .sort((a, b) => a.address.localeCompare(b.address));
      expect(paid).toEqual(items);
    }
    expect(await reconcileLedger(database.db)).toEqual([]);
  }

  it('pays three accounts (one split 60/40) in ONE sendmany that confirms with the recorded txid and amounts', async () => {
    const peerBefore = await Promise.all(
      accounts
        .flatMap((a) => a.addresses)
        .map(async (address) => peerWallet.call('getreceivedbyaddress', [address, 0])),
    );
    expect(peerBefore.every((v) => v === '0.00000000' || v === 0)).toBe(true);
    await credit(database.db, [50_000_000n, 30_000_001n, 12_345_678n]);

    const result = await run(at(0));
    expect(result.sent).toHaveLength(1);
    const [payout] = await payouts();
    expect(payout).toMatchObject({ status: 'sent', total: '92345679', demo: false });
    expect(payout?.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(BigInt(payout?.fee as string)).toBeGreaterThan(0n);
    expect(await balancesOf()).toEqual([0n, 0n, 0n]);

    await net.generate(1);
    await net.sync();
    const confirmed = (await minerWallet.call('gettransaction', [payout?.txid])) as { confirmations: number };
    expect(confirmed.confirmations).toBe(1);
    // The miners' wallet received exactly the planned amounts, confirmed.
    const expected = [50_000_000n, 18_000_001n, 12_000_000n, 12_345_678n];
    const received = await Promise.all(
      accounts
        .flatMap((a) => a.addresses)
        .map(async (address) => peerWallet.call('getreceivedbyaddress', [address, 1])),
    );
    expect(received).toEqual(expected.map((u) => unitsToDecimal(u, 8)));
    await expectPayoutsMatchTheChain(await payouts());
  });

  describe.each<[PayoutStep, number]>([
    ['after-pending', 2],
    ['after-sending', 4],
    ['after-wallet-call', 6],
  ])('a crash %s', (step, hour) => {
    it('is reconciled by the next run into exactly one on-chain transaction', async () => {
      const before = (await payouts()).length;
      const paidBefore = (await balancesOfSystemAccount(database.db, 'pool:payouts'))[0]?.amount ?? 0n;
      await credit(database.db, [10_000_000n, 20_000_000n, 30_000_000n]);
      await expect(run(at(hour), { [step]: () => Promise.reject(new Error(`killed ${step}`)) })).rejects.toBeInstanceOf(
        PayoutRunAborted,
      );
      const crashed = (await payouts())[before] as Payout;
      expect(await walletTransactionsWithComment(crashed.idempotency_key)).toHaveLength(
        step === 'after-wallet-call' ? 1 : 0,
      );

      await run(at(hour, 60_000));
      if (step === 'after-sending') {
        expect((await payouts())[before]?.status).toBe('sending');
        await run(at(hour, PAYOUT_SENDING_GRACE_MS));
        expect((await payouts())[before]).toMatchObject({ status: 'failed', error: PAYOUT_FAILURE.notFoundAfterCrash });
      } else {
        expect((await payouts())[before]?.status).toBe('sent');
      }
      const mine = (await payouts()).slice(before);
      expect(mine.filter((p) => p.status === 'sent')).toHaveLength(1);
      await expectPayoutsMatchTheChain(mine);
      expect(await balancesOf()).toEqual([0n, 0n, 0n]);
      const paidAfter = (await balancesOfSystemAccount(database.db, 'pool:payouts'))[0]?.amount ?? 0n;
      expect(paidAfter - paidBefore).toBe(60_000_000n);

      // Later runs send nothing more.
      await run(at(hour, 2 * PAYOUT_SENDING_GRACE_MS));
      expect((await payouts()).length).toBe(mine.length + before);
      await net.generate(1);
      await net.sync();
    });
  });

  it('follows a found block to maturity and another to orphaned through the daemon', async () => {
    const statusOf = daemonBlockStatus([
      {
        ticker: 'LTC',
        algorithm: 'scrypt',
        daemons: [net.miner.rpcUrl],
        pool_address: net.poolAddress,
        rules: ['mweb', 'segwit'],
        poll_interval_ms: 1000,
        pool_tag: '/lodestone/',
        merged: [],
        payout_scheme: 'pps',
      },
    ]);
    const minedCoins = [{ ticker: 'LTC', algorithm: 'scrypt' }];
    const record = async (hash: string, n: number) => {
      const header = (await net.miner.client.call('getblockheader', [hash])) as { height: number };
      await recordBlock(database.db, {
        id: `00000000-0000-4000-8000-00000000000${n}`,
        node: 'node-1',
        algorithm: 'scrypt',
        coin: 'LTC',
        height: header.height,
        hash,
        reward: '5000000000',
        account: 'alice',
        worker: 'rig1',
        difficulty: '1',
        status: 'pending',
        found_at: at(10),
        submit_error: null,
      });
    };
    const row = (hash: string) =>
      database.db.selectFrom('blocks').selectAll().where('hash', '=', hash).executeTakeFirstOrThrow();
    const [matures] = (await net.generate(1)) as [string];
    await record(matures, 1);
    await runBlockConfirmations({ db: database.db, minedCoins, statusOf, log }, at(10, 60_000));
    expect(await row(matures)).toMatchObject({ status: 'pending', confirmations: 1 });

    await net.generate(99);
    await runBlockConfirmations({ db: database.db, minedCoins, statusOf, log }, at(11));
    expect(await row(matures)).toMatchObject({ status: 'confirmed', confirmations: 100 });
    expect((await balancesOfSystemAccount(database.db, 'pool:blocks'))[0]).toEqual({
      coin: 'LTC',
      amount: 5_000_000_000n,
    });

    const [orphan] = (await net.generate(2)) as [string];
    await record(orphan, 2);
    await runBlockConfirmations({ db: database.db, minedCoins, statusOf, log }, at(12));
    expect(await row(orphan)).toMatchObject({ status: 'pending', confirmations: 2 });
    await net.miner.client.call('invalidateblock', [orphan]);
    await runBlockConfirmations({ db: database.db, minedCoins, statusOf, log }, at(12, 60_000));
    expect(await row(orphan)).toMatchObject({ status: 'orphaned', confirmations: 0 });
    expect((await balancesOfSystemAccount(database.db, 'pool:blocks'))[0]?.amount).toBe(5_000_000_000n);
    expect(await reconcileLedger(database.db)).toEqual([]);
  });
});
