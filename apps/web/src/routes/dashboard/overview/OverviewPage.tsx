import type { OverviewAccount } from '@lodestone/contract';
import { algorithmByName } from '@lodestone/domain';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../../components/DataTable';
import { LoadState } from '../../../components/LoadState';
import { Section, StatCard } from '../../../components/sections';
import { formatHashrate, formatUsd } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { setSelectedAccount, useSelectedAlgorithm } from '../../../state/hooks';
import { DashboardFrame } from '../DashboardFrame';
import { DASHBOARD_RETRY } from '../queries';
import { useOverview } from './queries';

/**
 * All accounts (/dashboard/overview, docs/dashboard.md, All accounts): every account of the user on the algorithm
 * chosen in the nav, side by side, with their totals above. Choosing an account opens its dashboard. The figures are
 * the server's; the page only formats them.
 */
export default function OverviewPage() {
  useDocumentTitle('All accounts');
  const [algorithmName] = useSelectedAlgorithm();
  const algorithm = algorithmByName(algorithmName)?.key ?? 'scrypt';
  const overview = useOverview(algorithm);
  const navigate = useNavigate();
  const open = (account: string) => {
    setSelectedAccount(account);
    void navigate('/dashboard');
  };
  const data = overview.data;

  return (
    <DashboardFrame
      title="All accounts"
      subtitle={`Every account of yours on ${algorithmName}.`}
      controls={
        <Link to="/dashboard" className="text-sm font-semibold text-amber-700 hover:underline dark:text-amber-400">
          Back to the dashboard
        </Link>
      }
    >
      {data ? (
        <div className="space-y-6">
          <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5" data-testid="overview-totals">
            <StatCard
              label="Current Hashrate"
              hint={`last ${data.window_minutes} min`}
              testId="total-hashrate"
              value={formatHashrate(data.totals.hashrate, data.totals.hashrate_units)}
            />
            <StatCard
              label="Average Hashrate"
              hint="last 24 h"
              testId="total-hashrate-avg"
              value={formatHashrate(data.totals.hashrate_avg, data.totals.hashrate_avg_units)}
            />
            <StatCard
              label="Active Workers"
              testId="total-workers"
              value={`${data.totals.active_workers} / ${data.totals.total_workers}`}
            />
            <StatCard
              label="Low / Offline"
              testId="total-attention"
              value={`${data.totals.low_workers} / ${data.totals.offline_workers}`}
            />
            <StatCard
              label="Estimated 24h revenue"
              testId="total-revenue"
              value={formatUsd(data.totals.estimated_revenue)}
            />
          </dl>
          <Section title="Accounts" testId="overview-accounts">
            <DataTable
              testId="overview-table"
              className=""
              caption={`Your accounts on ${algorithmName}`}
              columns={overviewColumns(open)}
              rows={data.accounts}
              rowKey={(row) => row.account_name}
              rowTestId="overview-row"
              rowProps={(row) => ({
                onClick: () => open(row.account_name),
                className: 'cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800/60',
              })}
              empty="You have no mining account yet."
            />
          </Section>
        </div>
      ) : (
        <LoadState
          retry={DASHBOARD_RETRY}
          isPending={overview.isPending}
          error={overview.error}
          what="accounts overview"
          testId="overview"
        />
      )}
    </DashboardFrame>
  );
}

/** A count that needs the miner's eye (a worker low or offline) stands out; none reads as plain 0. */
function attentionClass(count: number, tone: 'low' | 'offline'): string | undefined {
  if (count === 0) return undefined;
  return tone === 'low'
    ? 'font-semibold text-amber-700 dark:text-amber-400'
    : 'font-semibold text-red-700 dark:text-red-400';
}

/** The table: the account's name opens its dashboard (the whole row does too, for a pointer). */
function overviewColumns(open: (account: string) => void): Column<OverviewAccount>[] {
  return [
    {
      label: 'Account',
      rowHeader: true,
      phone: 'primary',
      testId: 'overview-account',
      cell: (row) => (
        <button
          type="button"
          className="rounded font-semibold text-amber-700 hover:underline focus-visible:outline-2 focus-visible:outline-amber-500 dark:text-amber-400"
          onClick={(event) => {
            // The row's own click opens it too: once is enough.
            event.stopPropagation();
            open(row.account_name);
          }}
        >
          {row.account_name}
        </button>
      ),
    },
    {
      label: 'Current Hashrate',
      align: 'right',
      testId: 'overview-hashrate',
      cell: (row) => formatHashrate(row.hashrate, row.hashrate_units),
    },
    {
      label: 'Average Hashrate',
      align: 'right',
      testId: 'overview-hashrate-avg',
      cell: (row) => formatHashrate(row.hashrate_avg, row.hashrate_avg_units),
    },
    {
      label: 'Workers',
      align: 'right',
      testId: 'overview-workers',
      title: () => 'Active / total',
      cell: (row) => `${row.active_workers} / ${row.total_workers}`,
    },
    {
      label: 'Low',
      align: 'right',
      testId: 'overview-low',
      cell: (row) => <span className={attentionClass(row.low_workers, 'low')}>{row.low_workers}</span>,
    },
    {
      label: 'Offline',
      align: 'right',
      testId: 'overview-offline',
      cell: (row) => <span className={attentionClass(row.offline_workers, 'offline')}>{row.offline_workers}</span>,
    },
    {
      label: 'Est. 24h Revenue',
      align: 'right',
      testId: 'overview-revenue',
      cell: (row) => formatUsd(row.estimated_revenue),
    },
  ];
}
