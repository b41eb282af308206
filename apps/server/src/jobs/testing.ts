import { type Executor, postLedgerTransaction } from '@lodestone/db';
import type { FoundBlock, ShareBatch, WorkerShareCounts } from '@lodestone/domain';
import type { Log } from './types.js';

/** Test data builders for share batches and found blocks (tests only). */
let sequence = 0;

export function uuid(n = ++sequence): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function shareCounts(account: string, worker: string, over: Partial<WorkerShareCounts> = {}): WorkerShareCounts {
  return {
    account,
    worker,
    acceptedDifficulty: 0,
    valid: 0,
    invalid: 0,
    stale: 0,
    lastShareAt: 0,
    rejectReasons: {},
    ...over,
  };
}

/** A 5-second batch ending at `end` (ISO), its workers' last shares 1 s before the end. */
export function shareBatch(end: string, workers: WorkerShareCounts[], over: Partial<ShareBatch> = {}): ShareBatch {
  const intervalEnd = Date.parse(end);
  return {
    id: uuid(),
    node: 'node-1',
    algorithm: 'scrypt',
    intervalStart: intervalEnd - 5000,
    intervalEnd,
    workers: workers.map((w) => ({ ...w, lastShareAt: w.lastShareAt || intervalEnd - 1000 })),
    ...over,
  };
}

export function foundBlock(over: Partial<FoundBlock> = {}): FoundBlock {
  return {
    id: uuid(),
    node: 'node-1',
    algorithm: 'scrypt',
    coin: 'LTC',
    height: 2_700_000,
    hash: 'ab'.repeat(32),
    reward: '625000000',
    account: 'alice',
    worker: 'rig1',
    difficulty: 65536,
    foundAt: Date.parse('2024-05-06T10:00:00Z'),
    submitResult: { accepted: true },
    ...over,
  };
}

export interface RecordedLog extends Log {
  entries: { level: string; fields: object; message: string }[];
}

/** A Log that remembers what it was told. */
export function recordingLog(): RecordedLog {
  const entries: RecordedLog['entries'] = [];
  const at = (level: string) => (fields: object, message: string) => void entries.push({ level, fields, message });
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

let seeded = 0;

/** Credits an account `amount` units of `coin` (an admin adjustment stands in for PPS credits). */
export async function seedBalance(db: Executor, accountId: bigint, coin: string, amount: bigint): Promise<void> {
  await db.transaction().execute((trx) =>
    postLedgerTransaction(trx, {
      key: `seed:${++seeded}:${accountId}:${coin}`,
      kind: 'admin_adjustment',
      legs: [
        { account: { accountId }, coin, amount, kind: 'admin_adjustment' },
        { account: { system: 'pool:adjustments' }, coin, amount: -amount, kind: 'admin_adjustment' },
      ],
    }),
  );
}

/** Payout settings of an account for a coin: its addresses with their proportions (text), in position order. */
export async function seedPayoutSettings(
  db: Executor,
  accountId: bigint,
  coin: string,
  addresses: readonly (readonly [string, string])[],
  over: { threshold?: string; interval?: string; pausedUntil?: Date | null } = {},
): Promise<void> {
  await db
    .insertInto('payout_settings')
    .values({
      account_id: accountId,
      ticker: coin,
      threshold: over.threshold ?? '0.01',
      interval_hours: over.interval ?? '1',
      paused_until: over.pausedUntil ?? null,
    })
    .execute();
  await db
    .insertInto('payout_addresses')
    .values(
      addresses.map(([address, proportion], position) => ({
        account_id: accountId,
        ticker: coin,
        position,
        address,
        proportion,
      })),
    )
    .execute();
}
