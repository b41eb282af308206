import type { WorkJob } from '@lodestone/chain';
import type { Issued } from '../issuedJobs.js';
import type { JobEntry } from '../jobManager.js';
import { REJECT_CODES, type RejectReason } from '../validate.js';
import type { DialectVerdict, SentJobs, SolvedBlock } from './dialect.js';

/** The verdict pieces every dialect's share check builds the same way. */

/**
 * A refused share. `message`: the dialect's wording when it differs from REJECT_MESSAGES; `issued` and
 * `key`: the job and duplicate key when the share got that far (the session records it against them).
 */
export function refused<J extends WorkJob>(
  reason: RejectReason,
  detail: { message?: string; issued?: Issued<JobEntry<J>>; key?: number } = {},
): DialectVerdict<J> {
  const { message, issued, key } = detail;
  return {
    accepted: false,
    reason,
    code: REJECT_CODES[reason],
    ...(message !== undefined && { message }),
    ...(issued !== undefined && key !== undefined && { issued, key }),
  };
}

/**
 * The job a submit names while it may still take shares, or the refusal: unknown (never sent or too
 * old), stale (its block was superseded) or evicted (dropped from the job window).
 */
export function liveJob<J extends WorkJob>(
  jobs: SentJobs<J>,
  jobId: number,
): { issued: Issued<JobEntry<J>> } | { refusal: DialectVerdict<J> } {
  const found = jobs.lookup(jobId);
  const { issued } = found;
  if (issued === undefined) return { refusal: refused(found.reason) };
  if (issued.entry.stale) return { refusal: refused('stale') };
  if (issued.entry.evicted) return { refusal: refused('job-not-found') };
  return { issued };
}

/** An accepted share worth `credit` (shareCredit's answer); `block` makes the candidate when it is one. */
export function credited<J extends WorkJob>(
  issued: Issued<JobEntry<J>>,
  key: number,
  credit: { difficulty: number; isBlock: boolean; value: bigint },
  block: () => SolvedBlock,
): DialectVerdict<J> {
  const { difficulty, isBlock, value } = credit;
  return { accepted: true, issued, key, difficulty, hashValue: value, block: isBlock ? block() : undefined };
}
