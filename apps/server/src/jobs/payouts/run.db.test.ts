import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type SentTransaction,
  type Wallet,
  WalletError,
  type WalletOutput,
  type WalletTransaction,
} from '@lodestone/chain';
import {
  balancesOfAccount,
  balancesOfSystemAccount,
  type Database,
  type Executor,
  type Payout,
  payoutItems,
  reconcileLedger,
} from '@lodestone/db';
import {
  createTestDatabase,
  emptyTestDatabase,
  insertTestAccount,
  seedBalance,
  seedPayoutSettings,
  testEngines,
} from '@lodestone/db/testing';
import { walletOutputs } from '@lodestone/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../services/mail.js';
import { OperatorAlerts } from '../operatorAlerts.js';
import { recordingLog } from '../testing.js';
import { DemoWallet } from '../wallets/demoWallet.js';
import { createWallets, type HotWallet } from '../wallets/wallets.js';
import { PAYOUT_SENDING_GRACE_MS } from './nodeWalletChannel.js';
import { payoutJob, runPayouts } from './run.js';
import { PAYOUT_FAILURE, type PayoutHooks, PayoutRunAborted, type PayoutStep } from './steps.js';

const T = (iso: string) => new Date(`2024-05-06T${iso}Z`);
const MINUTE = 60_000;
const later = (at: Date, ms: number) => new Date(at.getTime() + ms);

// ---------------------------------------------------------------------------------------------------
// A wallet that counts: what the crash tests assert "exactly one transaction per payout" against.

interface FakeSend {
  txid: string;
  comment: string;
  outputs: WalletOutput[];
  fee: bigint;
}

class FakeWallet implements Wallet {
  readonly demo = false;
  readonly sends: FakeSend[] = [];
  sendManyCalls = 0;
  /** Thrown by the next sendMany; with `afterSending` the transaction goes out first (a lost reply). */
  failNext: { error: Error; afterSending?: boolean } | undefined;
  readonly invalid = new Set<string>();
  fee = 2_260n;

  constructor(
    readonly coin: string,
    public funds = 100_000_000_000n,
  ) {}

  async balance(): Promise<bigint> {
    return this.funds;
  }

  async sendMany(outputs: readonly WalletOutput[], comment: string): Promise<SentTransaction> {
    this.sendManyCalls++;
    const fail = this.failNext;
    this.failNext = undefined;
    if (fail && !fail.afterSending) throw fail.error;
    const total = outputs.reduce((s, o) => s + o.amount, 0n);
    if (total + this.fee > this.funds) {
      throw new WalletError('insufficient-funds', 'Insufficient funds', { coin: this.coin, mayHaveSent: false });
    }
    const send = { txid: randomBytes(32).toString('hex'), comment, outputs: [...outputs], fee: this.fee };
    this.funds -= total + this.fee;
    this.sends.push(send);
    if (fail) throw fail.error;
    return { txid: send.txid, fee: send.fee };
  }

  async findByComment(comment: string): Promise<WalletTransaction | undefined> {
    const found = this.sends.filter((s) => s.comment === comment);
    if (found.length > 1) throw new WalletError('unknown', 'two transactions', { coin: this.coin });
    return found[0] && this.describe(found[0]);
  }

  async transaction(txid: string): Promise<WalletTransaction | undefined> {
    const found = this.sends.find((s) => s.txid === txid);
    return found && this.describe(found);
  }

  async validateAddress(address: string): Promise<boolean> {
    return !this.invalid.has(address);
  }

  private describe(s: FakeSend): WalletTransaction {
    const amount = s.outputs.reduce((sum, o) => sum + o.amount, 0n);
    return { txid: s.txid, confirmations: 1, comment: s.comment, amount, fee: s.fee };
  }
}

async function newAccount(db: Executor, name: string): Promise<bigint> {
  return (await insertTestAccount(db, name)).id;
}

const credit = seedBalance;
const payTo = seedPayoutSettings;

describe.each(testEngines())('payout job on %s', (engine) => {
  let database: Database;
  let wallet: FakeWallet;
  let log: ReturnType<typeof recordingLog>;
  let alice: bigint;
  let bob: bigint;
  let carol: bigint;

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
    await sql`update coins set payouts_enabled = true`.execute(database.db);
    wallet = new FakeWallet('LTC');
    log = recordingLog();
    alice = await newAccount(database.db, 'alice');
    bob = await newAccount(database.db, 'bob');
    carol = await newAccount(database.db, 'carol');
  });

  const hot = (w: Wallet = wallet, minBalance = 0n) =>
    new Map<string, HotWallet>([[w.coin, { wallet: w, minBalance }]]);
  const run = (now: Date, hooks?: PayoutHooks, wallets = hot()) =>
    runPayouts({ db: database.db, wallets, log }, now, hooks);
  const balanceOf = async (accountId: bigint, coin = 'LTC') =>
    (await balancesOfAccount(database.db, accountId)).find((b) => b.coin === coin)?.amount ?? 0n;
  const payouts = () => database.db.selectFrom('payouts').selectAll().orderBy('id').execute();
  const paidOut = async (coin = 'LTC') =>
    (await balancesOfSystemAccount(database.db, 'pool:payouts')).find((b) => b.coin === coin)?.amount ?? 0n;

  /** Alice 0.5 LTC to one address, Bob 0.3 LTC split 60/40 over two, Carol 0.2 LTC. */
  async function seedThree(): Promise<void> {
    const db = database.db;
    await payTo(db, alice, 'LTC', [['ltc-alice', '100']]);
    await payTo(db, bob, 'LTC', [
      ['ltc-bob-1', '60'],
      ['ltc-bob-2', '40'],
    ]);
    await payTo(db, carol, 'LTC', [['ltc-carol', '100']]);
    await credit(db, alice, 'LTC', 50_000_000n);
    await credit(db, bob, 'LTC', 30_000_001n);
    await credit(db, carol, 'LTC', 20_000_000n);
  }

  /** Every sent payout matches exactly one wallet transaction, and the wallet sent nothing else. */
  async function expectOneTransactionPerSentPayout(): Promise<Payout[]> {
    const sent = (await payouts()).filter((p) => p.status === 'sent');
    expect(wallet.sends).toHaveLength(sent.length);
    for (const p of sent) {
      const matching = wallet.sends.filter((s) => s.comment === p.idempotency_key);
      expect(matching).toHaveLength(1);
      expect(p.txid).toBe(matching[0]?.txid);
      const items = await payoutItems(database.db, p.id);
      expect(walletOutputs(items)).toEqual(matching[0]?.outputs);
    }
    expect(await reconcileLedger(database.db)).toEqual([]);
    return sent;
  }

  it('pays every due account in one sendmany, a 60/40 account to both its addresses', async () => {
    await seedThree();
    const result = await run(T('10:00:00'));
    expect(wallet.sendManyCalls).toBe(1);
    expect(wallet.sends[0]?.outputs).toEqual([
      { address: 'ltc-alice', amount: 50_000_000n },
      { address: 'ltc-bob-1', amount: 18_000_001n },
      { address: 'ltc-bob-2', amount: 12_000_000n },
      { address: 'ltc-carol', amount: 20_000_000n },
    ]);
    const [payout] = await payouts();
    expect(result).toEqual({ sent: [payout?.idempotency_key], confirmed: [], failed: [], open: [] });
    expect(payout?.idempotency_key).toMatch(/^payout:LTC:[0-9a-f-]{36}$/);
    expect(wallet.sends[0]?.comment).toBe(payout?.idempotency_key);
    expect(payout).toMatchObject({
      status: 'sent',
      total: '100000001',
      fee: '2260',
      txid: wallet.sends[0]?.txid,
      demo: false,
      created_at: T('10:00:00'),
      sending_at: T('10:00:00'),
      sent_at: T('10:00:00'),
    });
    expect(await balanceOf(alice)).toBe(0n);
    expect(await balanceOf(bob)).toBe(0n);
    expect(await balanceOf(carol)).toBe(0n);
    expect(await paidOut()).toBe(100_000_001n);
    await expectOneTransactionPerSentPayout();

    // Nothing is due right after: balances are empty, and the interval runs from this payout.
    await run(T('10:00:01'));
    expect(wallet.sendManyCalls).toBe(1);
  });

  it('does not pay a paused account, one below its threshold, one whose interval has not elapsed, or a disabled coin', async () => {
    const db = database.db;
    await payTo(db, alice, 'LTC', [['ltc-alice', '100']], { pausedUntil: T('10:30:00') });
    await payTo(db, bob, 'LTC', [['ltc-bob', '100']], { threshold: '1' });
    await payTo(db, carol, 'LTC', [['ltc-carol', '100']], { interval: '2' });
    await credit(db, alice, 'LTC', 50_000_000n);
    await credit(db, bob, 'LTC', 99_999_999n);
    await credit(db, carol, 'LTC', 20_000_000n);

    // Carol is paid first; then she earns again.
    await run(T('09:00:00'));
    expect(wallet.sends.map((s) => s.outputs)).toEqual([[{ address: 'ltc-carol', amount: 20_000_000n }]]);
    await credit(db, carol, 'LTC', 20_000_000n);

    await run(T('10:00:00'));
    expect(wallet.sendManyCalls).toBe(1);
    expect(await balanceOf(alice)).toBe(50_000_000n);
    expect(await balanceOf(bob)).toBe(99_999_999n);
    expect(await balanceOf(carol)).toBe(20_000_000n);

    // With the coin disabled nothing is paid even once everyone is due.
    await sql`update coins set payouts_enabled = false where ticker = 'LTC'`.execute(db);
    await credit(db, bob, 'LTC', 1n);
    await run(T('11:00:00'));
    expect(wallet.sendManyCalls).toBe(1);

    // Enabled again: the pause is over, Bob reached 1 LTC, Carol's two hours have passed.
    await sql`update coins set payouts_enabled = true where ticker = 'LTC'`.execute(db);
    await run(T('11:00:00'));
    expect(wallet.sendManyCalls).toBe(2);
    expect(wallet.sends[1]?.outputs).toEqual([
      { address: 'ltc-alice', amount: 50_000_000n },
      { address: 'ltc-bob', amount: 100_000_000n },
      { address: 'ltc-carol', amount: 20_000_000n },
    ]);
    await expectOneTransactionPerSentPayout();
  });

  describe.each<PayoutStep>(['after-pending', 'after-sending', 'after-wallet-call'])('a crash %s', (step) => {
    it('never pays twice: one wallet transaction per payout, balances debited once, ledger reconciled', async () => {
      await seedThree();
      const crashAt = T('10:00:00');
      const crash = new Error(`killed ${step}`);
      await expect(run(crashAt, { [step]: () => Promise.reject(crash) })).rejects.toBeInstanceOf(PayoutRunAborted);
      const [crashed] = await payouts();
      expect(crashed?.status).toBe(step === 'after-pending' ? 'pending' : 'sending');
      expect(wallet.sendManyCalls).toBe(step === 'after-wallet-call' ? 1 : 0);
      expect(await balanceOf(alice)).toBe(0n); // debited when written, whatever happens next

      // The restarted process runs again a minute later.
      const restart = later(crashAt, MINUTE);
      await run(restart);
      if (step === 'after-sending') {
        // The wallet has no transaction with the key, but the call might still be landing: wait.
        expect((await payouts()).map((p) => p.status)).toEqual(['sending']);
        expect(wallet.sendManyCalls).toBe(0);
        // Past the grace period nothing can land any more: failed, restored, and paid afresh.
        const result = await run(later(crashAt, PAYOUT_SENDING_GRACE_MS));
        expect(result.failed).toEqual([crashed?.idempotency_key]);
        const [failed, fresh] = await payouts();
        expect(failed).toMatchObject({ status: 'failed', error: PAYOUT_FAILURE.notFoundAfterCrash, txid: null });
        expect(fresh).toMatchObject({ status: 'sent', total: '100000001' });
      } else {
        expect((await payouts()).map((p) => [p.idempotency_key, p.status])).toEqual([
          [crashed?.idempotency_key, 'sent'],
        ]);
      }
      expect(wallet.sendManyCalls).toBe(1);
      const sent = await expectOneTransactionPerSentPayout();
      expect(sent).toHaveLength(1);
      expect(await balanceOf(alice)).toBe(0n);
      expect(await balanceOf(bob)).toBe(0n);
      expect(await balanceOf(carol)).toBe(0n);
      expect(await paidOut()).toBe(100_000_001n);

      // And later runs change nothing.
      await run(later(crashAt, 2 * PAYOUT_SENDING_GRACE_MS));
      expect(wallet.sendManyCalls).toBe(1);
      expect(await paidOut()).toBe(100_000_001n);
    });
  });

  it('restores balances when the wallet refuses (nothing sent), and pays them at a later run', async () => {
    await seedThree();
    wallet.failNext = {
      error: new WalletError('invalid-address', 'Invalid Litecoin address', { coin: 'LTC', mayHaveSent: false }),
    };
    const result = await run(T('10:00:00'));
    expect(result.failed).toHaveLength(1);
    const [failed] = await payouts();
    expect(failed).toMatchObject({ status: 'failed', txid: null, failed_at: T('10:00:00') });
    expect(failed?.error).toMatch(/^wallet refused \(invalid-address\): /);
    expect(await balanceOf(alice)).toBe(50_000_000n);
    expect(await balanceOf(bob)).toBe(30_000_001n);
    expect(await paidOut()).toBe(0n);
    expect(await reconcileLedger(database.db)).toEqual([]);
    expect(
      log.entries.some((e) => e.level === 'error' && (e.fields as { alert?: string }).alert === 'payout-failed'),
    ).toBe(true);

    // A failed payout is not a "last payout": the accounts are due again at once.
    await run(T('10:01:00'));
    expect((await payouts()).map((p) => p.status)).toEqual(['failed', 'sent']);
    expect(await balanceOf(alice)).toBe(0n);
    await expectOneTransactionPerSentPayout();
  });

  it('restores balances when the wallet runs short at the call itself', async () => {
    await seedThree();
    wallet.fee = 1n;
    wallet.funds = 100_000_001n; // covers the total, not the fee
    await run(T('10:00:00'));
    expect((await payouts()).map((p) => [p.status, p.error])).toEqual([
      ['failed', 'wallet refused (insufficient-funds): LTC wallet: Insufficient funds'],
    ]);
    expect(await balanceOf(carol)).toBe(20_000_000n);
    expect(await reconcileLedger(database.db)).toEqual([]);
  });

  it('leaves a payout whose outcome is unknown as sending, and records it from the wallet without resending', async () => {
    await seedThree();
    // The transaction goes out, then the reply is lost.
    wallet.failNext = {
      afterSending: true,
      error: new WalletError('unreachable', 'timed out', { coin: 'LTC', mayHaveSent: true }),
    };
    const first = await run(T('10:00:00'));
    expect(first.open).toHaveLength(1);
    expect((await payouts()).map((p) => p.status)).toEqual(['sending']);
    const second = await run(T('11:00:00'));
    expect(second.sent).toEqual(first.open);
    expect(wallet.sendManyCalls).toBe(1);
    expect((await payouts())[0]).toMatchObject({ status: 'sent', fee: '2260', sent_at: T('11:00:00') });
    await expectOneTransactionPerSentPayout();
  });

  it('fails an unknown-outcome payout the wallet never recorded, after the grace period only', async () => {
    await seedThree();
    wallet.failNext = {
      error: new WalletError('unreachable', 'connection refused', { coin: 'LTC', mayHaveSent: true }),
    };
    await run(T('10:00:00'));
    await run(later(T('10:00:00'), PAYOUT_SENDING_GRACE_MS - 1));
    expect((await payouts()).map((p) => p.status)).toEqual(['sending']);
    await run(later(T('10:00:00'), PAYOUT_SENDING_GRACE_MS));
    expect((await payouts()).map((p) => p.status)).toEqual(['failed', 'sent']);
    expect(wallet.sendManyCalls).toBe(2); // the failed attempt (nothing went out) and the new payout
    await expectOneTransactionPerSentPayout();
    expect(await paidOut()).toBe(100_000_001n);
  });

  it('records the txid at once when the wallet sent but could not read the transaction back', async () => {
    await seedThree();
    wallet.failNext = {
      afterSending: true,
      error: new WalletError('unreachable', 'read back failed', {
        coin: 'LTC',
        mayHaveSent: true,
        txid: 'placeholder',
      }),
    };
    // The fake's txid is random: put the real one in the error once it exists.
    const original = wallet.sendMany.bind(wallet);
    wallet.sendMany = async (outputs, comment) => {
      try {
        return await original(outputs, comment);
      } catch {
        const txid = wallet.sends.at(-1)?.txid as string;
        throw new WalletError('unreachable', 'read back failed', { coin: 'LTC', mayHaveSent: true, txid });
      }
    };
    await run(T('10:00:00'));
    expect((await payouts())[0]).toMatchObject({ status: 'sent', fee: null, txid: wallet.sends[0]?.txid });
    await expectOneTransactionPerSentPayout();
  });

  it('pays in due order what an underfunded wallet covers; the rest waits with one alert and keeps its balance', async () => {
    await seedThree();
    // All three (100,000,001) and the minimum balance (5,000,000) need one unit more than the wallet has:
    // alice and bob (never paid, lowest ids first) are paid, carol waits.
    wallet.funds = 100_000_001n + 4_999_999n;
    await run(T('10:00:00'), undefined, hot(wallet, 5_000_000n));
    const [first] = await payouts();
    expect(first?.status).toBe('sent');
    expect((await payoutItems(database.db, first?.id ?? 0n)).map((i) => i.address)).toEqual([
      'ltc-alice',
      'ltc-bob-1',
      'ltc-bob-2',
    ]);
    expect(await balanceOf(carol)).toBe(20_000_000n);
    const alerts = log.entries.filter((e) => (e.fields as { alert?: string }).alert === 'hot-wallet-underfunded');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.level).toBe('error');
    expect(alerts[0]?.fields).toMatchObject({ coin: 'LTC', paid: 2, waiting: 1, waitingTotal: '20000000' });

    wallet.funds += 10_000n;
    await run(T('11:00:00'), undefined, hot(wallet, 5_000_000n));
    expect((await payouts()).map((p) => p.status)).toEqual(['sent', 'sent']);
    expect(await balanceOf(carol)).toBe(0n);
    await expectOneTransactionPerSentPayout();
  });

  it('pays nobody when even the first due account does not fit, and says so', async () => {
    await seedThree();
    wallet.funds = 50_000_000n + 4_999_999n;
    await run(T('10:00:00'), undefined, hot(wallet, 5_000_000n));
    expect(await payouts()).toEqual([]);
    expect(wallet.sendManyCalls).toBe(0);
    expect(await balanceOf(alice)).toBe(50_000_000n);
    const alert = log.entries.find((e) => (e.fields as { alert?: string }).alert === 'hot-wallet-underfunded');
    expect(alert?.fields).toMatchObject({ paid: 0, waiting: 3 });
  });

  it('e-mails the admins once when a wallet starts falling short, again only after it recovered and fell short again', async () => {
    await seedThree();
    const admin = await insertTestAccount(database.db, 'operator');
    await database.db.updateTable('users').set({ is_admin: true }).where('id', '=', admin.user_id).execute();
    const outbox = mkdtempSync(path.join(tmpdir(), 'lodestone-alerts-'));
    const mailer = createMailer({ from: 'pool <pool@example.com>', outboxDir: outbox, log });
    const alertsRun = (at: Date) =>
      runPayouts(
        {
          db: database.db,
          wallets: hot(wallet, 5_000_000n),
          log,
          alerts: new OperatorAlerts(database.db, mailer, log),
        },
        at,
      );
    // Quoted-printable bodies: soft line breaks joined again.
    const mails = () =>
      readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, ''));

    wallet.funds = 50_000_000n + 4_999_999n;
    await alertsRun(T('10:00:00'));
    await alertsRun(T('11:00:00')); // still short, and a fresh OperatorAlerts, as after a restart: no second e-mail
    expect(mails()).toHaveLength(1);
    expect(mails()[0]).toContain('To: operator@example.com');
    expect(mails()[0]).toContain('Subject: LTC hot wallet cannot cover the payouts due');
    expect(mails()[0]).toContain('Waiting for funds: 3 account(s), 1.00000001 LTC.');

    wallet.funds = 10_000_000_000n;
    await alertsRun(T('12:00:00')); // covered: everyone paid, the alert cleared
    expect((await payouts()).map((p) => p.status)).toEqual(['sent']);
    expect(mails()).toHaveLength(1);

    await credit(database.db, alice, 'LTC', 50_000_000n);
    wallet.funds = 1n;
    await alertsRun(T('14:00:00'));
    expect(mails()).toHaveLength(2);
    rmSync(outbox, { recursive: true, force: true });
  });

  it('fails a pending payout left by a crash when the wallet is underfunded by the restart', async () => {
    await seedThree();
    await expect(run(T('10:00:00'), { 'after-pending': () => Promise.reject(new Error('killed')) })).rejects.toThrow();
    wallet.funds = 1n;
    await run(T('10:05:00'));
    expect((await payouts()).map((p) => [p.status, p.error])).toEqual([['failed', PAYOUT_FAILURE.underfunded]]);
    expect(wallet.sendManyCalls).toBe(0);
    expect(await balanceOf(bob)).toBe(30_000_001n);
    expect(await reconcileLedger(database.db)).toEqual([]);
  });

  it('gives a pending payout back when its coin has been disabled since', async () => {
    await seedThree();
    await expect(run(T('10:00:00'), { 'after-pending': () => Promise.reject(new Error('killed')) })).rejects.toThrow();
    await sql`update coins set payouts_enabled = false where ticker = 'LTC'`.execute(database.db);
    await run(T('10:05:00'));
    expect((await payouts()).map((p) => [p.status, p.error])).toEqual([['failed', PAYOUT_FAILURE.disabled]]);
    expect(await balanceOf(alice)).toBe(50_000_000n);
    expect(wallet.sendManyCalls).toBe(0);
  });

  it('pays once when two runs race', async () => {
    await seedThree();
    const results = await Promise.all([run(T('10:00:00')), run(T('10:00:00')), run(T('10:00:00'))]);
    expect(results.flatMap((r) => r.sent)).toHaveLength(1);
    expect(wallet.sendManyCalls).toBe(1);
    expect((await payouts()).map((p) => p.status)).toEqual(['sent']);
    await expectOneTransactionPerSentPayout();
    expect(await paidOut()).toBe(100_000_001n);
  });

  it('leaves out accounts with an address the wallet calls invalid, and pays the others', async () => {
    await seedThree();
    wallet.invalid.add('ltc-bob-2');
    await run(T('10:00:00'));
    expect(wallet.sends[0]?.outputs.map((o) => o.address)).toEqual(['ltc-alice', 'ltc-carol']);
    expect(await balanceOf(bob)).toBe(30_000_001n);
    expect(log.entries.some((e) => e.level === 'warn' && /invalid/.test(e.message))).toBe(true);
  });

  it('does not pay a coin without a wallet, and says so once per run', async () => {
    await seedThree();
    await run(T('10:00:00'), undefined, new Map());
    expect(await payouts()).toEqual([]);
    expect(log.entries.filter((e) => (e.fields as { alert?: string }).alert === 'coin-without-wallet')).toHaveLength(1);
  });

  it('the job runs with the configured schedule and wallets', async () => {
    await seedThree();
    const job = payoutJob({
      config: { coins: [], wallets: [], payoutsEveryMinutes: 60 },
      wallets: hot(),
    });
    expect(job).toMatchObject({ name: 'payouts', everyMs: 3_600_000, singleton: true });
    await job.run({ database, log, now: T('10:00:00'), signal: new AbortController().signal });
    expect((await payouts()).map((p) => p.status)).toEqual(['sent']);
  });

  describe('on the demo network', () => {
    it('pays from demo wallets with marked txids, and the payout settles as minutes pass', async () => {
      await seedThree();
      const wallets = await createWallets({ coins: [], wallets: [] }, database.db);
      expect([...wallets.keys()]).toContain('LTC');
      expect(wallets.size).toBe(13);
      expect([...wallets.values()].every((w) => 'demo' in w.wallet && w.wallet.demo && w.minBalance === 0n)).toBe(true);
      await run(T('10:00:00'), undefined, wallets);
      const [payout] = await payouts();
      expect(payout).toMatchObject({ status: 'sent', demo: true, fee: '0', total: '100000001' });
      expect(payout?.txid).toMatch(/^demo[0-9a-f]{60}$/);
      const rows = await database.db.selectFrom('demo_wallet_transactions').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        txid: payout?.txid,
        coin: 'LTC',
        comment: payout?.idempotency_key,
        total: '100000001',
      });
      expect(rows[0]?.outputs).toEqual([
        { address: 'ltc-alice', amount: '50000000' },
        { address: 'ltc-bob-1', amount: '18000001' },
        { address: 'ltc-bob-2', amount: '12000000' },
        { address: 'ltc-carol', amount: '20000000' },
      ]);
      expect(await reconcileLedger(database.db)).toEqual([]);

      let now = new Date();
      const demo = new DemoWallet('LTC', database.db, () => now);
      expect(await demo.findByComment(payout?.idempotency_key as string)).toMatchObject({
        txid: payout?.txid,
        confirmations: 0,
      });
      now = new Date(now.getTime() + 7 * MINUTE + 1000);
      expect((await demo.transaction(payout?.txid as string))?.confirmations).toBe(7);
      now = new Date(now.getTime() + 365 * 24 * 60 * MINUTE);
      expect((await demo.transaction(payout?.txid as string))?.confirmations).toBe(10_000);
      expect(await demo.findByComment('payout:LTC:nothing')).toBeUndefined();
      expect(await new DemoWallet('BTC', database.db).transaction(payout?.txid as string)).toBeUndefined();
    });

    it('refuses what a real wallet refuses, and uses only demo wallets without coin daemons', async () => {
      const demo = new DemoWallet('LTC', database.db);
      await expect(demo.sendMany([], 'k')).rejects.toMatchObject({ kind: 'rejected', mayHaveSent: false });
      await expect(demo.sendMany([{ address: 'a', amount: 1n }], '')).rejects.toMatchObject({ kind: 'rejected' });
      await expect(
        demo.sendMany(
          [
            { address: 'a', amount: 1n },
            { address: 'a', amount: 1n },
          ],
          'k',
        ),
      ).rejects.toMatchObject({ kind: 'rejected' });
      expect(await database.db.selectFrom('demo_wallet_transactions').select('txid').execute()).toEqual([]);

      const ignored = await createWallets(
        {
          coins: [],
          wallets: [{ kind: 'bitcoin' as const, ticker: 'LTC', rpc_url: 'http://u:p@127.0.0.1:1/', min_balance: '1' }],
        },
        database.db,
        log,
      );
      expect(ignored.get('LTC')?.wallet).toMatchObject({ demo: true });
      expect(log.entries.some((e) => e.level === 'warn')).toBe(true);

      const real = await createWallets(
        {
          coins: [
            {
              ticker: 'LTC',
              algorithm: 'scrypt',
              daemons: ['http://u:p@127.0.0.1:1/'],
              pool_address: 'x',
              rules: ['segwit'],
              poll_interval_ms: 1000,
              pool_tag: '/t/',
              merged: [],
              payout_scheme: 'pps',
            },
          ],
          wallets: [
            {
              kind: 'bitcoin' as const,
              ticker: 'LTC',
              rpc_url: 'http://u:p@127.0.0.1:1/wallet/pool',
              min_balance: '0.5',
            },
          ],
        },
        database.db,
      );
      expect([...real.keys()]).toEqual(['LTC']);
      expect(real.get('LTC')).toMatchObject({ minBalance: 50_000_000n, wallet: { demo: false, coin: 'LTC' } });
      await expect(
        createWallets(
          {
            coins: [
              {
                ticker: 'LTC',
                algorithm: 'scrypt',
                daemons: ['http://x/'],
                pool_address: 'x',
                rules: [],
                poll_interval_ms: 1000,
                pool_tag: '',
                merged: [],
                payout_scheme: 'pps',
              },
            ],
            wallets: [
              { kind: 'bitcoin' as const, ticker: 'XYZ', rpc_url: 'http://u:p@127.0.0.1:1/', min_balance: '0' },
            ],
          },
          database.db,
        ),
      ).rejects.toThrow(/XYZ is not a coin/);
    });
  });
});
