import type { DB } from '@lodestone/db';
import type { FoundBlock, ShareBatch, WorkerShareCounts } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import { emptyShareCounts } from '../stratum/shareAggregator.js';
import { applyShareBatch } from './accounting.js';
import { rollupJob } from './rollup.js';
import type { JobDefinition, Log } from './types.js';

/** Test data builders for share batches and found blocks (tests only). */
let sequence = 0;

export function uuid(n = ++sequence): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A worker's counts in a batch: zero but for `over` (shareBatch fills in a zero lastShareAt). */
export function shareCounts(account: string, worker: string, over: Partial<WorkerShareCounts> = {}): WorkerShareCounts {
  return { ...emptyShareCounts(account, worker, 0), ...over };
}

/**
 * A 5-second batch ending at `end` (ISO), its workers' last shares 1 s before the end — the last
 * accepted one too when the worker has valid shares, as a stratum node reports them.
 */
export function shareBatch(end: string, workers: WorkerShareCounts[], over: Partial<ShareBatch> = {}): ShareBatch {
  const intervalEnd = Date.parse(end);
  const timed = (w: WorkerShareCounts): WorkerShareCounts => {
    const lastShareAt = w.lastShareAt || intervalEnd - 1000;
    const lastAcceptedAt = w.lastAcceptedAt ?? (w.valid > 0 ? lastShareAt : undefined);
    return { ...w, lastShareAt, ...(lastAcceptedAt !== undefined && { lastAcceptedAt }) };
  };
  const batch: ShareBatch = {
    id: uuid(),
    node: 'node-1',
    algorithm: 'scrypt',
    intervalStart: intervalEnd - 5000,
    intervalEnd,
    workers: workers.map(timed),
    ...over,
  };
  // Solo ports' workers (docs/solo.md) get their share times the same way.
  if (over.soloWorkers) batch.soloWorkers = over.soloWorkers.map(timed);
  return batch;
}

/** The pool-stats rollup as the pool runs it (roles/jobs.ts), over a `windowMinutes` statistics window. */
export function poolStatsRollup(windowMinutes = 10): JobDefinition {
  return rollupJob({ windowMinutes, hashesPerDifficulty: powHashesPerDifficulty });
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

/**
 * Steady mining as accounting applies it: one accepted share of difficulty 64 per worker of `account`
 * every `everyMs`, from `fromMs` until before `toMs` (each batch ends 5 seconds into its step).
 */
export async function mineSteadily(
  db: Kysely<DB>,
  account: string,
  workers: readonly string[],
  range: { fromMs: number; toMs: number; everyMs: number },
): Promise<void> {
  for (let t = range.fromMs; t < range.toMs; t += range.everyMs) {
    await applyShareBatch(
      db,
      shareBatch(
        new Date(t + 5_000).toISOString(),
        workers.map((w) => shareCounts(account, w, { acceptedDifficulty: 64, valid: 1 })),
      ),
    );
  }
}
