import type { AlgorithmKey } from '@lodestone/domain';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { DashboardSource, DashboardView } from '../../../api/dashboard';
import { LoadState } from '../../../components/LoadState';
import { StatCard } from '../../../components/sections';
import { browserTimeZone, formatHashrate, formatUsd } from '../../../lib/format';
import { DashboardChart } from '../charts/DashboardChart';
import { DASHBOARD_RETRY, useMiningSummary, useWorker } from '../queries';
import type { DashboardTabProps } from '../tabProps';
import { SoloPanel } from './SoloPanel';
import { WorkerDetail } from './WorkerDetail';
import { WorkersSection } from './WorkersSection';

/** What only the miner may do on this tab; the observer dashboard passes none (read-only). */
export interface MiningActions {
  account: string;
  setUpWorkers: () => void;
}

/**
 * The Mining tab (docs/dashboard.md, The screens): one worker's view when the address names one (`?worker=12`), four
 * cards, the hashrate chart over the page's chosen period, the solo panel when the account mines solo on the algorithm
 * (docs/dashboard.md, Solo mining), and the workers table.
 */
export function MiningTab({ source, algorithm, chartRange, actions }: DashboardTabProps<MiningActions>) {
  const [timezone] = useState(browserTimeZone);
  const [search, setSearch] = useSearchParams();
  const workerId = search.get('worker');
  // A worker is one algorithm's: choosing another closes its view rather than show "not found". The view belongs to
  // the algorithm it was opened on, so it is gone from the very render in which another is chosen (the address still
  // names the worker until the effect below takes it out, and asking the new algorithm for it would only be refused).
  const [openedOn, setOpenedOn] = useState({ workerId, algorithm });
  if (openedOn.workerId !== workerId) setOpenedOn({ workerId, algorithm });
  const otherAlgorithm = workerId !== null && openedOn.algorithm !== algorithm;
  useEffect(() => {
    if (otherAlgorithm) setSearch(withoutWorker, { replace: true });
  }, [otherAlgorithm, setSearch]);
  return (
    <div className="space-y-6">
      {workerId !== null && openedOn.workerId === workerId && !otherAlgorithm && (
        <OpenWorker key={workerId} source={source} algorithm={algorithm} workerId={workerId} timezone={timezone} />
      )}
      <SummaryCards source={source} algorithm={algorithm} />
      <DashboardChart chart="hashrate" source={source} algorithm={algorithm} timezone={timezone} range={chartRange} />
      <SoloPanel source={source} algorithm={algorithm} timezone={timezone} />
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
  const worker = useWorker(view.source, view.algorithm, workerId);
  return <WorkerDetail {...view} workerId={workerId} worker={worker} />;
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
