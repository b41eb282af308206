import type { SigningWallet } from '@lodestone/chain';
import {
  balancesOfAccount,
  type Database,
  type Payout,
  payoutItems,
  payoutTransactions,
  reconcileLedger,
} from '@lodestone/db';
import { createTestDatabase, insertTestAccount, seedBalance, seedPayoutSettings } from '@lodestone/db/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordingLog } from '../testing.js';
import type { HotWallet } from '../wallets/wallets.js';
import { runPayouts } from './run.js';
import { PayoutRunAborted, type PayoutStep } from './steps.js';

/**
 * The payout engine's promise for pool-signed wallets (docs/money.md, "Payouts from pool-signed
 * wallets"), checked the same way against every chain: a real EVM node for ETH and USDC, the stand-in
 * nodes for CKB, Kaspa and Kadena. A chain test file calls describeSigningPayouts with its chain.
 */

export interface SigningChain {
  /** The catalogue coin paid. */
  coin: string;
  wallet: SigningWallet;
  /** The same wallet's configuration against a node that does not answer. */
  offlineWallet: SigningWallet;
  /** A fresh address of the chain that nobody has paid yet. */
  newAddress(): Promise<string>;
  /** An address the wallet must refuse. */
  invalidAddress: string;
  /** What `address` holds on the chain now. */
  received(address: string): Promise<bigint>;
  /** Makes the chain add `blocks` blocks (mining whatever was broadcast). */
  mine(blocks: number): Promise<void>;
  /** An amount (smallest units) whose 40% part is still above the wallet's minOutput. */
  unit: bigint;
  /** Chains whose node can undo blocks (EVM: evm_snapshot / evm_revert): a reorganisation. */
  reorg?: { mark(): Promise<string>; undo(mark: string): Promise<void> };
  /** Chains whose node can stop mining (EVM: automine off): a stuck transaction. */
  stall?: { hold(): Promise<void>; release(): Promise<void> };
}

const T0 = Date.parse('2026-11-25T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const STEPS: PayoutStep[] = [
  'before-pending',
  'after-pending',
  'after-sign',
  'after-store',
  'after-broadcast',
  'after-confirmation',
];

export function describeSigningPayouts(name: string, start: () => Promise<SigningChain & { stop(): Promise<void> }>) {
  describe(`payouts from a pool-signed wallet: ${name}`, () => {
    let chain: SigningChain & { stop(): Promise<void> };
    let database: Database;
    let log: ReturnType<typeof recordingLog>;

    beforeAll(async () => {
      chain = await start();
    });
    afterAll(async () => {
      await chain?.stop();
    });
    beforeEach(async () => {
      database = await createTestDatabase();
      log = recordingLog();
    });
    afterEach(async () => {
      await database?.close();
    });

    const hot = (wallet = chain.wallet): Map<string, HotWallet> => new Map([[chain.coin, { wallet, minBalance: 0n }]]);
    const run = (minute: number, hooks = {}, wallet = chain.wallet) =>
      runPayouts({ db: database.db, wallets: hot(wallet), log }, at(minute), hooks);
    const payouts = (): Promise<Payout[]> => database.db.selectFrom('payouts').selectAll().orderBy('id').execute();

    /** Alice to one address, Bob split 60/40 over two, Carol to one: what each address is owed. */
    async function seedThree(): Promise<Map<string, bigint>> {
      const owed = new Map<string, bigint>();
      const plan: [string, bigint, string[]][] = [
        ['alice', 3n * chain.unit, ['100']],
        ['bob', 2n * chain.unit + 1n, ['60', '40']],
        ['carol', 2n * chain.unit, ['100']],
      ];
      for (const [who, amount, proportions] of plan) {
        const account = await insertTestAccount(database.db, who);
        const addresses = [];
        for (const _ of proportions) addresses.push(await chain.newAddress());
        await seedPayoutSettings(
          database.db,
          account.id,
          chain.coin,
          addresses.map((address, i) => [address, proportions[i] as string] as const),
          { threshold: '0.000001' },
        );
        await seedBalance(database.db, account.id, chain.coin, amount);
        // The domain's split: floor of each share, the remainder to the first address.
        const shares = proportions.map((p) => (amount * BigInt(p)) / 100n);
        shares[0] = (shares[0] as bigint) + amount - shares.reduce((s, v) => s + v, 0n);
        for (const [i, address] of addresses.entries()) owed.set(address, shares[i] as bigint);
      }
      return owed;
    }

    /** Every address received exactly what it was owed, once; every payout confirmed; the ledger reconciles. */
    async function expectPaidOnce(owed: Map<string, bigint>): Promise<void> {
      for (const [address, amount] of owed) expect(await chain.received(address)).toBe(amount);
      const all = await payouts();
      expect(all.every((p) => p.status === 'sent' && p.confirmed_at !== null)).toBe(true);
      let paid = 0n;
      for (const p of all) {
        for (const item of await payoutItems(database.db, p.id)) paid += item.amount;
        const mined = (await payoutTransactions(database.db, p.id)).filter((t) => t.txid === p.txid);
        expect(mined).toHaveLength(1);
      }
      expect(paid).toBe([...owed.values()].reduce((s, v) => s + v, 0n));
      expect(await reconcileLedger(database.db)).toEqual([]);
    }

    /** Runs until nothing is open, mining in between (each run a minute later). */
    async function settle(fromMinute: number): Promise<void> {
      for (let minute = fromMinute; minute < fromMinute + 6; minute += 1) {
        await chain.mine(chain.wallet.confirmations);
        const result = await run(minute);
        if (
          result.open.length === 0 &&
          (await payouts()).every((p) => p.confirmed_at !== null || p.status === 'failed')
        )
          return;
      }
    }

    it('pays several accounts and addresses, each transaction stored before broadcast, until confirmed', async () => {
      const owed = await seedThree();
      const first = await run(0);
      expect(first.failed).toEqual([]);
      const written = await payouts();
      expect(written.length).toBe(Math.ceil(owed.size / chain.wallet.maxOutputs));
      expect(written.every((p) => p.status === 'sent')).toBe(true);
      for (const p of written) expect(await payoutTransactions(database.db, p.id)).toHaveLength(1);
      await settle(1);
      await expectPaidOnce(owed);
      expect(log.entries.some((e) => e.message === 'payout confirmed')).toBe(true);
    });

    for (const step of STEPS) {
      it(`a crash ${step} ends with every miner paid exactly once`, async () => {
        const owed = await seedThree();
        const killed = () => Promise.reject(new Error('killed'));
        if (step === 'after-confirmation') {
          await run(0);
          await chain.mine(chain.wallet.confirmations);
          await expect(run(1, { [step]: killed })).rejects.toThrow(PayoutRunAborted);
        } else {
          await expect(run(0, { [step]: killed })).rejects.toThrow(PayoutRunAborted);
        }
        await settle(2);
        await expectPaidOnce(owed);
      });
    }

    it('a reorganisation that drops a mined payout transaction: broadcast again, counted from zero, paid once', async (context) => {
      if (!chain.reorg) return context.skip();
      const owed = await seedThree();
      const mark = await chain.reorg.mark();
      // Held, so that every payout lands in one block and stays short of its confirmations.
      await chain.stall?.hold();
      try {
        await run(0);
        await chain.mine(1);
        await run(1); // mined, not yet final: its depth is recorded
        expect((await payouts()).every((p) => p.confirmations > 0 && p.confirmed_at === null)).toBe(true);
        await chain.reorg.undo(mark);
        await run(2);
        expect(log.entries.some((e) => (e.fields as { alert?: string }).alert === 'payout-reorganised')).toBe(true);
        expect((await payouts()).every((p) => p.confirmations === 0)).toBe(true);
      } finally {
        await chain.stall?.release();
      }
      await settle(3);
      await expectPaidOnce(owed);
    });

    it('a stuck payout transaction is replaced at the same nonce with a higher fee; one of them is mined, once', async (context) => {
      if (!chain.stall) return context.skip();
      const owed = await seedThree();
      await chain.stall.hold();
      try {
        await run(0);
        const stuck = await payouts();
        expect(stuck.every((p) => p.status === 'sent')).toBe(true);
        // Past replace_after_minutes (30 by default): every payout gets a second attempt, stored first.
        await run(31);
        for (const p of stuck) {
          const attempts = await payoutTransactions(database.db, p.id);
          expect(attempts.map((t) => [t.attempt, t.status])).toEqual([
            [1, 'replaced'],
            [2, 'live'],
          ]);
          expect(attempts[1]?.spends).toEqual(attempts[0]?.spends);
        }
      } finally {
        await chain.stall.release();
      }
      await settle(32);
      await expectPaidOnce(owed);
      for (const p of await payouts()) {
        const attempts = await payoutTransactions(database.db, p.id);
        expect(attempts.find((t) => t.txid === p.txid)?.attempt).toBe(2);
        expect(attempts.find((t) => t.attempt === 1)?.status).toBe('dead');
      }
    });

    it('an underfunded wallet writes nothing it cannot pay; the accounts keep their balances', async () => {
      const account = await insertTestAccount(database.db, 'whale');
      await seedPayoutSettings(database.db, account.id, chain.coin, [[await chain.newAddress(), '100']], {
        threshold: '0.000001',
      });
      const more = (await chain.wallet.balance()) + 1n;
      await seedBalance(database.db, account.id, chain.coin, more);
      await run(0);
      expect(await payouts()).toEqual([]);
      expect(log.entries.find((e) => (e.fields as { alert?: string }).alert === 'hot-wallet-underfunded')).toBeTruthy();
      const [balance] = await balancesOfAccount(database.db, account.id);
      expect(balance?.amount).toBe(more);
    });

    it('leaves out an account whose address the wallet refuses and pays the others', async () => {
      const owed = await seedThree();
      const bad = await insertTestAccount(database.db, 'mallory');
      await seedPayoutSettings(database.db, bad.id, chain.coin, [[chain.invalidAddress, '100']], {
        threshold: '0.000001',
      });
      await seedBalance(database.db, bad.id, chain.coin, chain.unit);
      await run(0);
      await settle(1);
      await expectPaidOnce(owed);
      const [balance] = await balancesOfAccount(database.db, bad.id);
      expect(balance?.amount).toBe(chain.unit);
      expect(log.entries.some((e) => e.message.includes('calls a payout address invalid'))).toBe(true);
    });

    it('a node that does not answer loses nothing: the run fails, and the next one pays', async () => {
      const owed = await seedThree();
      await expect(run(0, {}, chain.offlineWallet)).rejects.toThrow();
      expect(await payouts()).toEqual([]);
      await run(1);
      await settle(2);
      await expectPaidOnce(owed);
    });
  });
}
