import type { AlgorithmKey } from '@lodestone/domain';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { DashboardSource, DashboardView } from '../../../api/dashboard';
import { LoadState } from '../../../components/LoadState';
import { StatCard } from '../../../components/sections';
import { browserTimeZone, formatHashrate, formatUsd } from '../../../lib/format';
import { DashboardChart } from '../charts/DashboardChart';
import { DASHBOARD_RETRY, useMiningSummary, useWorkers } from '../queries';
import type { DashboardTabProps } from '../tabProps';
import { WorkerDetail } from './WorkerDetail';
import { WorkersSection } from './WorkersSection';

/** What only the miner may do on this tab; the observer dashboard passes none (read-only). */
export interface MiningActions {
  account: string;
  setUpWorkers: () => void;
}

/**
 * The Mining tab (docs/dashboard.md, The screens): one worker's view when the address names one (`?worker=12`), four
 * cards, the hashrate chart over the page's chosen period, and the workers table.
 */
export function MiningTab({ source, algorithm, chartRange, actions }: DashboardTabProps<MiningActions>) {
  const [timezone] = useState(browserTimeZone);
  const [search, setSearch] = useSearchParams();
  const workerId = search.get('worker');
  // A worker is one algorithm's: choosing another closes its view rather than show "not found".
  const shownAlgorithm = useRef(algorithm);
  useEffect(() => {
    if (shownAlgorithm.current === algorithm) return;
    shownAlgorithm.current = algorithm;
    setSearch(withoutWorker, { replace: true });
  }, [algorithm, setSearch]);
  return (
    <div className="space-y-6">
      {workerId !== null && (
        <OpenWorker key={workerId} source={source} algorithm={algorithm} workerId={workerId} timezone={timezone} />
      )}
      <SummaryCards source={source} algorithm={algorithm} />
      <DashboardChart chart="hashrate" source={source} algorithm={algorithm} timezone={timezone} range={chartRange} />
      <WorkersSection source={source} algorithm={algorithm} actions={actions} />
    </div>
  );
}

/** The address without one worker's view (`?worker=`), everything else kept. */
export function withoutWorker(search: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(search);
  next.delete('worker');
  return next;
}

/** Keyed by the worker: another worker's view starts afresh (its chart at 24 hours). */
function OpenWorker({ workerId, ...view }: DashboardView & { workerId: string }) {
  const workers = useWorkers(view.source, view.algorithm);
  return <WorkerDetail {...view} workerId={workerId} workers={workers} />;
}

function SummaryCards({ source, algorithm }: { source: DashboardSource; algorithm: AlgorithmKey }) {
  const summary = useMiningSummary(source, algorithm);
  const data = summary.data;
  if (!data)
    return (
      <LoadState retry={DASHBOARD_RETRY} isPending={summary.isPending} error={summary.error} what="mining summary" />
    );
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" data-testid="mining-cards">
      <StatCard
        label="Current Hashrate"
        hint={`last ${data.window_minutes} min`}
        testId="card-hashrate"
        value={formatHashrate(data.hashrate, data.hashrate_units)}
      />
      <StatCard
        label="Average Hashrate"
        hint="last 24 h"
        testId="card-hashrate-avg"
        value={formatHashrate(data.hashrate_avg, data.hashrate_avg_units)}
      />
      <StatCard label="Active Workers" testId="card-workers" value={`${data.active_workers} / ${data.total_workers}`} />
      <StatCard label="Estimated 24h revenue" testId="card-revenue" value={formatUsd(data.estimated_revenue)} />
    </dl>
  );
}
