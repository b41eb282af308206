import type {
  MiningWorkerResponse,
  MiningWorkersMatchingResponse,
  MiningWorkersPageResponse,
} from '@lodestone/contract';
import type { Account } from '@lodestone/db';
import {
  type AlgorithmKey,
  type WorkersFilterAsk,
  type WorkersPageAsk,
  workersMatching,
  workersPageOf,
} from '@lodestone/domain';
import { errors } from './errors.js';
import { type MiningContext, parseWorkerId, readMiningWorkers, WORKER_NOT_FOUND } from './mining.js';

/**
 * GET /user/mining/workers/page: one page of the workers table (docs/dashboard.md, "Workers"). The figures are the
 * whole list's (readMiningWorkers), read once at one instant; the filters, search, sort and page are the table's own
 * rules (packages/domain workerList.ts), so a page here is the page the dashboard would make of the whole list, and
 * a farm's browser receives ten rows instead of all of them.
 */
export async function readMiningWorkersPage(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  ask: WorkersPageAsk,
): Promise<MiningWorkersPageResponse> {
  const { all, readAt } = await listedAt(ctx, account, algorithm);
  return workersPageOf(all, ask, readAt);
}

/**
 * GET /user/mining/workers/matching: every worker the table's filters and search keep, by name, as a bulk action names
 * them — what "Select all N matching" selects, without sending every worker's figures (a 10,000-worker farm's list is
 * 2.9 MB; this is its ids, names and labels).
 */
export async function readMiningWorkersMatching(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  ask: WorkersFilterAsk,
): Promise<MiningWorkersMatchingResponse> {
  const { all, readAt } = await listedAt(ctx, account, algorithm);
  const workers = workersMatching(all, ask, readAt).map(({ id, name, label }) => ({ id, name, label }));
  return { workers, read_at: readAt };
}

/**
 * GET /user/mining/workers/one: one worker's row as the whole list has it, for one worker's view (docs/dashboard.md,
 * "One worker"), read for that worker alone. Another account's worker, another algorithm's, or no worker at all: 404
 * "Worker not found".
 */
export async function readMiningWorker(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  workerId: string,
): Promise<MiningWorkerResponse> {
  const id = parseWorkerId(workerId);
  if (id === undefined) throw errors.notFound(WORKER_NOT_FOUND);
  const { all, readAt } = await listedAt(ctx, account, algorithm, { workerId: id });
  const [worker] = all;
  if (!worker) throw errors.notFound(WORKER_NOT_FOUND);
  return { worker, read_at: readAt };
}

/** The list (or one worker's row) read at one instant, every row's figures and ages of it, and that instant in ISO. */
async function listedAt(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  only: { workerId?: bigint } = {},
) {
  const at = ctx.now();
  return {
    all: await readMiningWorkers({ ...ctx, now: () => at }, account, algorithm, only),
    readAt: at.toISOString(),
  };
}
