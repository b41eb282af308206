import type { ChartPeriod, MiningWorker, MiningWorkerResponse } from '@lodestone/contract';
import { type AlgorithmKey, algorithmByKey } from '@lodestone/domain';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { DashboardSource, WorkerChartPeriod } from '../../../api/dashboard';
import { ApiError } from '../../../api/errors';
import { DataTable } from '../../../components/DataTable';
import { secondaryButtonClass } from '../../../components/form';
import { LoadState } from '../../../components/LoadState';
import { Section } from '../../../components/sections';
import { formatHashrate } from '../../../lib/format';
import { ChartSection } from '../charts/ChartSection';
import { DASHBOARD_RETRY, useWorkerChart, useWorkerConnections, useWorkerRejects } from '../queries';
import { WorkerStatus } from './WorkerStatus';
import {
  connectionEventText,
  connectionTimeText,
  groupText,
  lastShareDetail,
  orDash,
  workerSearch,
} from './workerDetailTexts';
import { rejectBreakdown } from './workerRejects';

/** What one worker's chart offers: its hour rows are kept 8 days, so 30 days is the account's chart only. */
const WORKER_CHART_PERIODS: readonly WorkerChartPeriod[] = ['24h', '7d'];
const isWorkerPeriod = (period: ChartPeriod): period is WorkerChartPeriod =>
  (WORKER_CHART_PERIODS as readonly ChartPeriod[]).includes(period);

/**
 * One worker's view (docs/dashboard.md, Workers: "One worker"), opened by its name in the table and named in the
 * page's address (`?worker=12`), so a miner can share it: its state and figures, its refusals by reason, its own
 * hashrate chart and its connection history. The observer sees the same; nothing here writes.
 */
export function WorkerDetail({
  source,
  algorithm,
  workerId,
  worker: read,
  timezone,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  workerId: string;
  /** The worker's row as last read, and when it was read (its ages count from then); a 404: no such worker. */
  worker: {
    data: MiningWorkerResponse | undefined;
    isPending: boolean;
    error: Error | null;
  };
  timezone: string;
}) {
  const location = useLocation();
  const back = (
    <Link
      to={{ search: workerSearch(location.search, null) }}
      className={secondaryButtonClass}
      data-testid="close-worker"
    >
      All workers
    </Link>
  );
  const notFound = read.error instanceof ApiError && read.error.status === 404;
  if (!read.data && !notFound) {
    return (
      <Section title="Worker" testId="worker-detail" actions={back}>
        <LoadState retry={DASHBOARD_RETRY} isPending={read.isPending} error={read.error} what="worker" />
      </Section>
    );
  }
  // The row of the worker the address names: a removed worker's, another account's or another algorithm's is none.
  const worker = read.data?.worker.id === workerId ? read.data.worker : undefined;
  if (!worker || notFound) {
    return (
      <Section title="Worker not found" testId="worker-detail" actions={back}>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="worker-not-found">
          No worker of this account on {algorithmByKey(algorithm)?.name ?? algorithm} has this link’s id: it may have
          been removed, or it mines on another algorithm.
        </p>
      </Section>
    );
  }
  const now = read.data?.read_at ?? new Date().toISOString();
  return (
    <div className="space-y-6" data-testid="worker-detail">
      <Section title={`Worker ${worker.name}`} testId="worker-summary" actions={back}>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Fact label="State" testId="worker-detail-state">
            <WorkerStatus state={worker.state} />
          </Fact>
          <Fact label="Last share" testId="worker-detail-last-share">
            {lastShareDetail(worker, now)}
          </Fact>
          <Fact label="Group" testId="worker-detail-group">
            {groupText(worker)}
          </Fact>
          <Fact label="Current hashrate" testId="worker-detail-hashrate">
            {formatHashrate(worker.hashrate, worker.hashrate_units)}
          </Fact>
          <Fact label="Average hashrate (24 h)" testId="worker-detail-hashrate-avg">
            {formatHashrate(worker.hashrate_avg, worker.hashrate_avg_units)}
          </Fact>
          <Fact label="Accepted shares (24 h)" testId="worker-detail-accepted">
            {worker.valid_shares.toLocaleString('en-US')}
          </Fact>
        </dl>
        <Rejects source={source} algorithm={algorithm} worker={worker} />
      </Section>
      <WorkerChart source={source} algorithm={algorithm} worker={worker} timezone={timezone} />
      <Connections source={source} algorithm={algorithm} workerId={worker.id} />
    </div>
  );
}

function Fact({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className="mt-0.5 text-slate-900 tabular-nums dark:text-white">
        {children}
      </dd>
    </div>
  );
}

/** Its refusals of the last 24 hours by reason, each and all together as a part of every share it sent. */
function Rejects({
  source,
  algorithm,
  worker,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  worker: MiningWorker;
}) {
  const rejects = useWorkerRejects(source, algorithm, worker.id);
  return (
    <div className="mt-6" data-testid="worker-rejects">
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">Refused shares (last 24 h)</h3>
      {rejects.data ? (
        <RejectTable breakdown={rejectBreakdown(rejects.data.rejects, worker.valid_shares)} />
      ) : (
        <LoadState retry={DASHBOARD_RETRY} isPending={rejects.isPending} error={rejects.error} what="refused shares" />
      )}
    </div>
  );
}

function RejectTable({ breakdown }: { breakdown: ReturnType<typeof rejectBreakdown> }) {
  return (
    <>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="worker-reject-rate">
        Reject rate <strong className="tabular-nums">{breakdown.rate}</strong>:{' '}
        {breakdown.refused.toLocaleString('en-US')} of {breakdown.total.toLocaleString('en-US')} shares refused
      </p>
      {breakdown.lines.length > 0 && (
        <DataTable
          testId="worker-reject-reasons"
          stackBelow={false}
          columns={[
            { label: 'Reason', rowHeader: true, phone: 'primary', testId: 'reject-reason', cell: (l) => l.text },
            {
              label: 'Shares',
              align: 'right',
              testId: 'reject-count',
              cell: (l) => l.count.toLocaleString('en-US'),
            },
            { label: 'Of all shares', align: 'right', testId: 'reject-percent', cell: (l) => l.percent },
          ]}
          rows={breakdown.lines}
          rowKey={(l) => l.reason}
          rowTestId="reject-row"
        />
      )}
    </>
  );
}

function WorkerChart({
  source,
  algorithm,
  worker,
  timezone,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  worker: MiningWorker;
  timezone: string;
}) {
  const [period, setPeriod] = useState<WorkerChartPeriod>('24h');
  return (
    <ChartSection
      title={`Hashrate of ${worker.name}`}
      testId="worker-chart"
      what="worker’s hashrate chart"
      chart={useWorkerChart(source, algorithm, worker.id, period, timezone)}
      range={{ period, onPeriod: (next) => isWorkerPeriod(next) && setPeriod(next) }}
      periods={WORKER_CHART_PERIODS}
      formatValue={(v) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
    />
  );
}

/** Its connects and disconnects, newest first, as the stratum nodes recorded them. */
function Connections({
  source,
  algorithm,
  workerId,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  workerId: string;
}) {
  const connections = useWorkerConnections(source, algorithm, workerId);
  return (
    <Section title="Connection history" testId="worker-connections">
      {connections.data ? (
        <DataTable
          testId="worker-connections-table"
          columns={[
            {
              label: 'Time',
              rowHeader: true,
              phone: 'primary',
              testId: 'connection-time',
              cell: (c) => connectionTimeText(c.at),
            },
            { label: 'Event', testId: 'connection-event', cell: (c) => connectionEventText(c.event) },
            { label: 'Reason', testId: 'connection-reason', cell: (c) => orDash(c.reason) },
            { label: 'Address range', testId: 'connection-ip', cell: (c) => orDash(c.ip_range) },
            {
              label: 'Software',
              testId: 'connection-software',
              // Mining software names itself as it likes, at any length: it wraps rather than widen a phone's card.
              cellClassName: 'whitespace-normal break-all',
              cell: (c) => orDash(c.user_agent),
            },
            { label: 'Node', testId: 'connection-node', cell: (c) => c.node },
          ]}
          rows={connections.data.connections}
          rowKey={(c, index) => `${c.at}-${c.event}-${index}`}
          rowTestId="connection-row"
          empty="No connection recorded in the last 8 days."
        />
      ) : (
        <LoadState
          retry={DASHBOARD_RETRY}
          isPending={connections.isPending}
          error={connections.error}
          what="connection history"
        />
      )}
    </Section>
  );
}
