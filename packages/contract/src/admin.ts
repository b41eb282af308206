import { ALGORITHMS, type AlgorithmKey } from '@lodestone/domain';
import { z } from 'zod';
import { pageNumber } from './common.js';

/**
 * Admin calls (docs/admin.md, Calls). Only users with the admin role reach them: anyone
 * else logged in gets 404 (the calls do not reveal that they exist), visitors 401. Bodies may be
 * multipart forms (what the website sends) or JSON; every field arrives as text from a form, so
 * numbers are accepted as text too. Refusals answer the API's usual `{ error, code }`.
 */

/** Rows per page of the user log (docs/website.md, Lists, refresh and copying). */
export const ADMIN_LOG_PAGE_SIZE = 20;

/** The default reason of a balance adjustment when the admin gives none (kept on the ledger transaction). */
export const ADMIN_ADJUSTMENT_DEFAULT_REASON = 'Admin balance adjustment';

/**
 * An e-mail as an admin types it to find a user: trimmed and lower-cased like stored addresses, but
 * not checked for shape, so the tombstone address of a deleted user (`deleted-7@deleted.invalid`)
 * still finds that user's log.
 */
const emailFilter = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(254, 'Email is too long');

/** An account name as typed; matched whatever the letter case (names are unique that way). */
const usernameFilter = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .max(64, 'Username is too long');

// ── users ────────────────────────────────────────────────────────────────────────────────────────

/** One row of GET /v1/admin/users (docs/admin.md, The screens). */
export const adminUser = z.object({
  email: z.string(),
  /** The user's live accounts, oldest first. */
  usernames: z.array(z.string()),
  has_2fa: z.boolean(),
  /** ISO time of the user's last own login (not an admin's login as them); null when never. */
  last_login: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUser>;

/** GET /v1/admin/users — every user who is not deleted, newest registration first; searched and paged by the client. */
export const adminUsersResponse = z.array(adminUser);
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>;

// ── user log ─────────────────────────────────────────────────────────────────────────────────────

/**
 * POST /v1/admin/logs/user — the user log of the user with this e-mail, newest first. With
 * `username` too, only the entries of that account of this user.
 */
export const adminLogsUserBody = z.object({
  email: emailFilter,
  username: z.string().trim().max(64, 'Username is too long').optional(),
  page: pageNumber,
});

/** POST /v1/admin/logs/account — the log entries of one account (removed accounts too), newest first. */
export const adminLogsAccountBody = z.object({ username: usernameFilter, page: pageNumber });

/** One user-log entry (docs/admin.md, User log). */
export const adminLogEntry = z.object({
  /** ISO time. */
  time: z.string(),
  log_name: z.string(),
  log_value: z.record(z.string(), z.unknown()),
  /** The account the entry concerns, or null for user-level events (login, 2FA, …). */
  account: z.string().nullable(),
});

/**
 * The answer of both log calls: one page of entries and how many there are in all. An unknown
 * e-mail or account is an empty answer, not an error: the screen then says nothing was found.
 */
export const adminLogsResponse = z.object({
  items: z.array(adminLogEntry),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
});
export type AdminLogsResponse = z.infer<typeof adminLogsResponse>;

// ── log in as a user ─────────────────────────────────────────────────────────────────────────────

/** POST /v1/admin/login — a session as the user with this e-mail, marked as impersonated. */
export const adminLoginBody = z.object({ email: emailFilter });

// ── balance adjustment ───────────────────────────────────────────────────────────────────────────

/**
 * The algorithm of a balance submission: its index in the usual order (what the website sends,
 * 0 = SCRYPT … 5 = KHEAVYHASH), or its key or name.
 */
export const adminAlgorithm = z
  .union([z.number(), z.string()], { error: 'Algorithm is required' })
  .transform((value, ctx): AlgorithmKey => {
    const text = String(value).trim();
    const byIndex = /^\d$/.test(text) ? ALGORITHMS[Number(text)] : undefined;
    const found = byIndex ?? ALGORITHMS.find((a) => a.key === text.toLowerCase());
    if (!found) {
      ctx.addIssue({ code: 'custom', message: 'Unknown algorithm' });
      return z.NEVER;
    }
    return found.key;
  });

/** POST /v1/admin/balance (docs/admin.md, Balance adjustments). */
export const adminBalanceBody = z.object({
  username: usernameFilter,
  algorithm: adminAlgorithm,
  ticker: z
    .string({ error: 'Coin is required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{2,10}$/, 'Unknown coin'),
  /**
   * Coin amount as decimal text (or a JSON number): positive credits, negative debits. The server
   * checks the decimals exactly; a JSON number is read by its shortest text.
   */
  value: z
    .union([z.number(), z.string().trim().min(1, 'Value is required').max(40, 'Value is too long')], {
      error: 'Value is required',
    })
    .transform(String),
  /** Why, kept on the ledger transaction and in both users' logs; a default text when empty. */
  reason: z
    .string()
    .trim()
    .max(500, 'Reason is at most 500 characters')
    .optional()
    .transform((r) => (r ? r : ADMIN_ADJUSTMENT_DEFAULT_REASON)),
});

/** The answer of a balance adjustment (`true` on success, docs/admin.md, Balance adjustments). */
export const adminBalanceResponse = z.literal(true);

// ── treasury ─────────────────────────────────────────────────────────────────────────────────────

/** An exact coin amount as decimal text in coin units ("1.5", "-0.00000001"), never a float. */
const coinAmount = z.string().regex(/^-?\d+(\.\d+)?$/, 'a coin amount as decimal text');
const isoTime = z.string();

/**
 * The hot wallet of a coin as the jobs role last read it (docs/admin.md, "Treasury"). The API never
 * asks a wallet (its keys live only in the jobs role): these are the wallet-snapshots job's figures.
 */
export const treasuryWallet = z.object({
  /** The demo network's wallet: unlimited, moves no coins. */
  demo: z.boolean(),
  /** The pool's address on the chain (pool-signed wallets, which the operator funds there); null for a node's wallet. */
  address: z.string().nullable(),
  /** Spendable balance at `read_at`; null until a read succeeded. */
  spendable: coinAmount.nullable(),
  /** What the wallet keeps (the configured min_balance): a payout that would leave less waits. */
  min_balance: coinAmount,
  /** When `spendable` (and the fee reserve) were read; null until a read succeeded. */
  read_at: isoTime.nullable(),
  /** The last attempt to read the wallet, and why it failed (null when it succeeded). */
  checked_at: isoTime,
  error: z.string().nullable(),
  /**
   * Tokens only (USDC's gas is paid in ETH), else null: the fee coin, its spendable balance, and the
   * most paying what is due may cost in it (one transaction per output at the fee last estimated).
   */
  fee_reserve: z
    .object({
      coin: z.string(),
      spendable: coinAmount.nullable(),
      needed: coinAmount.nullable(),
      /** What the fee reserve lacks to pay what is due (never below 0); null when unknown. */
      shortfall: coinAmount.nullable(),
    })
    .nullable(),
});

/** One coin of the treasury: what the pool owes, what is due, what the wallet holds, the pool's result. */
export const treasuryCoin = z.object({
  coin: z.string(),
  name: z.string(),
  decimals: z.number().int().nonnegative(),
  payouts_enabled: z.boolean(),
  /** The sum of every mining account's balance of the coin: what the pool owes its miners. */
  owed: coinAmount,
  /** What the next payout run pays (the payout job's rule at this instant), and to how many accounts. */
  due: coinAmount,
  due_accounts: z.number().int().nonnegative(),
  /** null: the coin has no hot wallet (or the jobs role has not read it yet). */
  wallet: treasuryWallet.nullable(),
  /** What the wallet lacks to pay what is due: due + min_balance − spendable, never below 0. */
  shortfall: coinAmount,
  waiting: z.object({
    /** Payouts written but not known to be sent yet (`pending` or `sending`), and their total. */
    open_payouts: z.number().int().nonnegative(),
    open_total: coinAmount,
    /** Accounts that are due but wait for the wallet to be funded. */
    accounts_for_funds: z.number().int().nonnegative(),
  }),
  /**
   * The pool's own profit and loss in the coin from the ledger: mined − PPS credited − solo blocks
   * credited to their finders + fees kept.
   */
  profit: z.object({
    mined: coinAmount,
    pps_credited: coinAmount,
    solo_credited: coinAmount,
    fees_kept: coinAmount,
    net: coinAmount,
  }),
});
export type TreasuryCoin = z.infer<typeof treasuryCoin>;

/** GET /v1/admin/treasury: every coin of the catalogue, in its order. */
export const adminTreasuryResponse = z.object({
  /** The server's time of the figures; a wallet snapshot's age is this minus its `read_at`. */
  generated_at: isoTime,
  coins: z.array(treasuryCoin),
});
export type AdminTreasuryResponse = z.infer<typeof adminTreasuryResponse>;
