import type {
  AlgorithmKey,
  BatchNetwork,
  ConnectionEvent,
  FoundBlock,
  ShareBatch,
  WorkerShareCounts,
} from '@lodestone/domain';
import { z } from 'zod';
import { algorithmKey } from './common.js';

/*
 * The messages stratum nodes hand to the jobs role over the share bus (apps/server/src/bus). The bus
 * adapters parse every message with these schemas before a consumer sees it; one that does not parse
 * can never be applied, so it is reported and dropped, never retried and never credited. The types
 * stay the domain's (`ShareBatch`, `FoundBlock`): each schema is checked against its type below.
 *
 * Difficulties are numbers, as the domain has them (statistics; PPS credits go through exact
 * decimals); rewards are decimal integer text of the coin's smallest unit, never a number.
 */

/** Epoch milliseconds, shares and counts: safe non-negative integers. */
const count = z.int().min(0);
/** A difficulty: a finite number, never negative (zod refuses NaN and ±Infinity). */
const difficulty = z.number().min(0);
/** Whole smallest units of a coin, as decimal text (NUMERIC(40,0) in the ledger). */
const wholeUnits = z.string().regex(/^\d{1,40}$/, 'not whole units');
const isUnits = (value: unknown): value is string => typeof value === 'string' && /^\d{1,40}$/.test(value);
/** The 8-4-4-4-12 hex form; stratum nodes use random UUIDs. */
const messageId = z.guid();

const isCount = (n: number) => Number.isSafeInteger(n) && n >= 0;
const COUNTS = ['valid', 'invalid', 'stale', 'lastShareAt'] as const;

/**
 * The hot path: a batch carries up to one entry per active worker (10,000 in bench:accounting).
 * zod checks the types; the ranges are one plain function instead of a zod check per field, which
 * keeps the parse of such a batch under half its cost with a check per field. Same rules as `count`
 * and `difficulty` (z.number() already refuses NaN and ±Infinity), same issue paths.
 */
const workerShareCounts = z
  .object({
    account: z.string(),
    worker: z.string(),
    acceptedDifficulty: z.number(),
    valid: z.number(),
    invalid: z.number(),
    stale: z.number(),
    lastShareAt: z.number(),
    lastAcceptedAt: z.number().optional(),
    rejectReasons: z.record(z.string(), z.number()),
    bestDifficulty: z.number().optional(),
  })
  .superRefine((w, ctx) => {
    if (w.account === '') ctx.addIssue({ code: 'custom', path: ['account'], message: 'empty' });
    if (w.acceptedDifficulty < 0) ctx.addIssue({ code: 'custom', path: ['acceptedDifficulty'], message: 'negative' });
    if (w.bestDifficulty !== undefined && !(w.bestDifficulty > 0)) {
      ctx.addIssue({ code: 'custom', path: ['bestDifficulty'], message: 'not positive' });
    }
    for (const key of COUNTS) {
      if (!isCount(w[key])) ctx.addIssue({ code: 'custom', path: [key], message: 'not a count' });
    }
    if (w.lastAcceptedAt !== undefined && !isCount(w.lastAcceptedAt)) {
      ctx.addIssue({ code: 'custom', path: ['lastAcceptedAt'], message: 'not a count' });
    }
    for (const reason in w.rejectReasons) {
      if (!isCount(w.rejectReasons[reason] as number)) {
        ctx.addIssue({ code: 'custom', path: ['rejectReasons', reason], message: 'not a count' });
      }
    }
  }) satisfies z.ZodType<WorkerShareCounts>;

/** A positive difficulty as exact decimal text. */
const positiveDecimal = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'not a decimal')
  .regex(/[1-9]/, 'not positive');

const batchNetwork = z
  .object({
    coin: z.string().regex(/^[A-Z0-9]{2,10}$/, 'not a ticker'),
    height: count,
    reward: wholeUnits,
    fees: wholeUnits.optional(),
    difficulty: positiveDecimal,
    demo: z.boolean(),
    blockDifficulty: positiveDecimal.optional(),
    blockSeconds: z.number().positive().max(86_400).optional(),
  })
  // Runs even when a field failed its own check: compares only what reads as whole units.
  .refine((n) => !isUnits(n.fees) || !isUnits(n.reward) || BigInt(n.fees) <= BigInt(n.reward), {
    path: ['fees'],
    message: 'more than the reward they are part of',
  }) satisfies z.ZodType<BatchNetwork>;

/**
 * A worker's connection that began or ended (`ConnectionEvent`), in the bounds its table keeps
 * (migration 0027): a message with a longer reason or agent was not written by our nodes.
 */
const connectionEvent = z.object({
  account: z.string().min(1),
  worker: z.string(),
  session: z.string().min(1).max(64),
  event: z.enum(['connect', 'disconnect']),
  at: count,
  reason: z.string().min(1).max(200).optional(),
  ipRange: z.string().max(64).optional(),
  userAgent: z.string().min(1).max(200).optional(),
}) satisfies z.ZodType<ConnectionEvent>;

/** One flush of one stratum node for one algorithm (`ShareBatch`). */
export const shareBatchMessage = z
  .object({
    id: messageId,
    node: z.string().min(1),
    algorithm: algorithmKey,
    intervalStart: count,
    intervalEnd: count,
    workers: z.array(workerShareCounts),
    soloWorkers: z.array(workerShareCounts).optional(),
    network: batchNetwork.optional(),
    merged: z.array(batchNetwork).max(16).optional(),
    connections: z.array(connectionEvent).optional(),
  })
  .refine((b) => b.intervalEnd >= b.intervalStart, {
    message: 'the interval ends before it starts',
    path: ['intervalEnd'],
  }) satisfies z.ZodType<ShareBatch>;

/**
 * A found block's hash as it is recorded, in its chain's own text (what its nodes answer to): 64 hex
 * digits, lower case (bitcoin family, Kaspa); CKB's 0x and 64 hex digits; Kadena's 43 base64url
 * characters (chainweb's block hash text, case-sensitive). Undefined when it is none of its chain's.
 */
export function blockHashText(algorithm: AlgorithmKey, hash: string): string | undefined {
  if (algorithm === 'blake2s') return /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(hash) ? hash : undefined;
  if (algorithm === 'eaglesong') {
    const hex = hash.startsWith('0x') ? hash.slice(2) : hash;
    return /^[0-9a-f]{64}$/i.test(hex) ? `0x${hex.toLowerCase()}` : undefined;
  }
  return /^[0-9a-f]{64}$/i.test(hash) ? hash.toLowerCase() : undefined;
}

/** A share that met the network target and was submitted to the coin daemon (`FoundBlock`). */
export const foundBlockMessage = z
  .object({
    id: messageId,
    node: z.string(),
    algorithm: algorithmKey,
    coin: z.string().min(1),
    height: count,
    hash: z.string(),
    reward: wholeUnits,
    account: z.string(),
    worker: z.string(),
    difficulty,
    networkDifficulty: positiveDecimal.optional(),
    foundAt: count,
    chain: count.optional(),
    solo: z.literal(true).optional(),
    submitResult: z.discriminatedUnion('accepted', [
      z.object({ accepted: z.literal(true) }),
      z.object({ accepted: z.literal(false), reason: z.string() }),
    ]),
  })
  .refine((b) => blockHashText(b.algorithm, b.hash) !== undefined, {
    message: 'the hash is not 32 bytes as its chain writes them',
    path: ['hash'],
  }) satisfies z.ZodType<FoundBlock>;
