import type { MiningWorker } from '@lodestone/contract';
import { type AlgorithmKey, FIRST_WORKERS_PAGE, workersPageOf } from '@lodestone/domain';
import type { QueryClient } from '@tanstack/react-query';
import type { DashboardSource } from '../api/dashboard';
import { queryKeys } from '../api/queryKeys';

/** A workers-list row as the API answers it, with the given fields replaced. */
export function buildMiningWorker(id: string, name: string, over: Partial<MiningWorker> = {}): MiningWorker {
  return {
    id,
    name,
    label: null,
    group: null,
    solo: false,
    hashrate: 1,
    hashrate_units: 'Mh/s',
    hashrate_avg: 2,
    hashrate_avg_units: 'Mh/s',
    online: true,
    state: 'online',
    last_share_at: null,
    valid_shares: 980,
    invalid_shares: 15,
    stale_shares: 5,
    ...over,
  };
}

/**
 * Seeds what the Mining tab reads of `workers`: each worker's own row (one worker's view) and the
 * table's first page as the server makes it of that list (the domain's workersPageOf), all read at `readAt`.
 */
export function seedWorkers(
  client: QueryClient,
  source: DashboardSource,
  algorithm: AlgorithmKey,
  workers: MiningWorker[],
  readAt = '2026-05-06T12:00:00.000Z',
): void {
  for (const worker of workers) {
    client.setQueryData(queryKeys.worker(source, algorithm, worker.id), { worker, read_at: readAt });
  }
  client.setQueryData(
    queryKeys.workersPage(source, algorithm, FIRST_WORKERS_PAGE),
    workersPageOf(workers, FIRST_WORKERS_PAGE, readAt),
  );
}
