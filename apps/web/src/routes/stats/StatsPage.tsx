import type { AlgorithmStatsResponse } from '@lodestone/contract';
import { algorithmByName } from '@lodestone/domain';
import { useState } from 'react';
import { STATS_REFRESH_MS, useAlgorithmStats, useStatsChart } from '../../api/public';
import { AlgorithmLogo } from '../../components/AlgorithmLogo';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { LoadState, PageHeader } from '../../components/publicPage';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSelectedAlgorithm } from '../../state/hooks';
import { browserTimeZone } from '../dashboard/format';
import { cellClass, EmptyRow, headerCellClass, Section, StatCard, tableClass } from '../dashboard/ui';
import { formatTopHashes, formatTopHashrate, statsCells } from './statsCells';

const REFRESH_SECONDS = STATS_REFRESH_MS / 1000;

/**
 * Stats ('Detailed Pool Statistics') of the algorithm chosen in the nav: the eight info cells, the
 * hashrate chart and the two top-hasher tables. Both calls refresh every 30 s and are keyed by the
 * algorithm, so choosing another one loads it at once. The chart waits for the first answers of
 * both calls (the spec's "loaded" flag) so it never shows one algorithm's line under another's cells.
 */
export default function StatsPage() {
  useDocumentTitle('Detailed Pool Statistics');
  const [algorithmName] = useSelectedAlgorithm();
  const algorithm = algorithmByName(algorithmName) ?? { key: 'scrypt' as const, name: 'SCRYPT' as const };
  const [timezone] = useState(browserTimeZone);
  const stats = useAlgorithmStats(algorithm.key);
  const chart = useStatsChart(algorithm.key, timezone);
  const loaded = stats.data !== undefined && chart.data !== undefined;

  let status: string | null = null;
  if (stats.data && stats.isError) {
    status = `The last update failed: ${stats.error.message.replace(/\.$/, '')}. Showing the figures from ${new Date(
      stats.dataUpdatedAt,
    ).toLocaleTimeString()}; trying again every ${REFRESH_SECONDS} seconds.`;
  }

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-12 sm:px-6" data-testid="stats-page" data-loaded={loaded}>
      <PageHeader title="Detailed Pool Statistics">
        <p className="flex items-center gap-2">
          <AlgorithmLogo algorithm={algorithm.name} className="size-5" />
          <span>
            <span data-testid="stats-algorithm" className="font-semibold text-slate-800 dark:text-slate-200">
              {algorithm.name}
            </span>
            . Updated every {REFRESH_SECONDS} seconds; choose another algorithm in the menu bar.
          </span>
        </p>
      </PageHeader>

      {status && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {status}
        </p>
      )}

      {stats.data ? (
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" data-testid="stats-cells">
          {statsCells(stats.data).map((cell) => (
            <StatCard key={cell.testId} label={cell.label} value={cell.value} testId={cell.testId} />
          ))}
        </dl>
      ) : (
        <LoadState
          isPending={stats.isPending}
          error={stats.error}
          what="pool statistics"
          retry={`Trying again every ${REFRESH_SECONDS} seconds.`}
          testId="stats"
        />
      )}

      <Section title="Pool hashrate" testId="stats-chart-section">
        {loaded ? (
          <TimeSeriesChart
            testId="stats-chart"
            title={chart.data.label}
            x={chart.data.x_axis}
            series={[{ label: chart.data.label, values: chart.data.y_axis }]}
          />
        ) : (
          <LoadState
            isPending={!chart.error && !stats.error}
            error={chart.error ?? stats.error}
            what="hashrate chart"
            retry={`Trying again every ${REFRESH_SECONDS} seconds.`}
            testId="stats-chart"
          />
        )}
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Top current hashers" testId="top-current">
          <TopTable
            data={stats.data}
            valueHeader="Hashrate"
            rows={stats.data?.top_hashrate.map((h) => ({
              user: h.user,
              value: formatTopHashrate(h.hashrate, stats.data.top_hashrate_units),
            }))}
            empty="Nobody is mining this algorithm right now."
          />
        </Section>
        <Section title="All-time top hashers" testId="top-all-time">
          <TopTable
            data={stats.data}
            valueHeader="Total hashes"
            rows={stats.data?.top_hashers_past.map((h) => ({
              user: h.user,
              value: formatTopHashes(h.hashes, stats.data.top_hashers_past_units),
            }))}
            empty="No shares on this algorithm yet."
          />
        </Section>
      </div>
    </div>
  );
}

function TopTable({
  data,
  valueHeader,
  rows,
  empty,
}: {
  data: AlgorithmStatsResponse | undefined;
  valueHeader: string;
  rows: { user: string; value: string }[] | undefined;
  empty: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className={tableClass} data-testid="top-table">
        <thead>
          <tr>
            <th scope="col" className={headerCellClass}>
              Rank
            </th>
            <th scope="col" className={headerCellClass}>
              Username
            </th>
            <th scope="col" className={`${headerCellClass} text-right`}>
              {valueHeader}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {!data && <EmptyRow colSpan={3}>—</EmptyRow>}
          {rows && rows.length === 0 && <EmptyRow colSpan={3}>{empty}</EmptyRow>}
          {rows?.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rank is the row's identity (names may repeat, e.g. anonymous miners).
            <tr key={index} data-testid="top-row" className="text-slate-800 dark:text-slate-200">
              <td className={cellClass}>{index + 1}</td>
              <td className={`${cellClass} font-semibold`} data-testid="top-user">
                {row.user}
              </td>
              <td className={`${cellClass} text-right`} data-testid="top-value">
                {row.value}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
