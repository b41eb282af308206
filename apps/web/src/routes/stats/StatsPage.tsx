import type { AlgorithmStatsResponse, ChartPeriod } from '@lodestone/contract';
import { algorithmByName } from '@lodestone/domain';
import { useState } from 'react';
import { Link } from 'react-router';
import { STATS_REFRESH_MS, useAlgorithmStats, useStatsChart } from '../../api/public';
import { AlgorithmPageHeader } from '../../components/AlgorithmPageHeader';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { type Column, DataTable } from '../../components/DataTable';
import { linkClass } from '../../components/form';
import { LastUpdateFailed } from '../../components/LastUpdateFailed';
import { LoadState } from '../../components/LoadState';
import { Section, StatCard } from '../../components/sections';
import { TimeRangeSelector } from '../../components/TimeRangeSelector';
import { browserTimeZone } from '../../lib/format';
import { formatBlockReward, formatDifficulty, formatHeight, formatNetworkHashrate } from '../../lib/network';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSelectedAlgorithm } from '../../state/hooks';
import { formatTopHashes, formatTopHashrate, statsCells } from './statsCells';

const REFRESH_SECONDS = STATS_REFRESH_MS / 1000;
const RETRY = `Trying again every ${REFRESH_SECONDS} seconds.`;

/**
 * Stats ('Detailed Pool Statistics') of the algorithm chosen in the nav: the eight info cells, the
 * networks the algorithm mines (its own coin, then the merge-mined ones), the hashrate chart over the chosen period
 * (default 24 hours, kept while the page is open; docs/dashboard.md, Chart ranges) and the two top-hasher tables. Both calls refresh every 30 s and are keyed by the
 * algorithm, so choosing another one loads it at once. The chart waits for the first answers of
 * both calls (docs/website.md, Stats and Profitability) so it never shows one algorithm's line under another's cells.
 */
export default function StatsPage() {
  useDocumentTitle('Detailed Pool Statistics');
  const [algorithmName] = useSelectedAlgorithm();
  const algorithm = algorithmByName(algorithmName) ?? { key: 'scrypt' as const, name: 'SCRYPT' as const };
  const [timezone] = useState(browserTimeZone);
  const [period, setPeriod] = useState<ChartPeriod>('24h');
  const stats = useAlgorithmStats(algorithm.key);
  const chart = useStatsChart(algorithm.key, period, timezone);
  const loaded = stats.data !== undefined && chart.data !== undefined;

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-12 sm:px-6" data-testid="stats-page" data-loaded={loaded}>
      <AlgorithmPageHeader title="Detailed Pool Statistics" algorithm={algorithm.name} testId="stats-algorithm">
        . Updated every {REFRESH_SECONDS} seconds; choose another algorithm in the menu bar.
      </AlgorithmPageHeader>

      <LastUpdateFailed query={stats} refreshSeconds={REFRESH_SECONDS} />

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
          retry={RETRY}
          testId="stats"
        />
      )}

      <Section title="Network" testId="network-section">
        <NetworkTable data={stats.data} />
      </Section>

      <Section
        title="Pool hashrate"
        testId="stats-chart-section"
        actions={<TimeRangeSelector value={period} onSelect={setPeriod} />}
      >
        {loaded ? (
          <TimeSeriesChart
            testId="stats-chart"
            title={chart.data.label}
            x={chart.data.x_axis}
            series={[{ label: chart.data.label, values: chart.data.y_axis }]}
            busy={chart.isPlaceholderData}
          />
        ) : (
          <LoadState
            isPending={!chart.error && !stats.error}
            error={chart.error ?? stats.error}
            what="hashrate chart"
            retry={RETRY}
            testId="stats-chart"
          />
        )}
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        {TOP_TABLES.map((table) => (
          <Section key={table.testId} title={table.title} testId={table.testId}>
            <TopTable data={stats.data} table={table} />
          </Section>
        ))}
      </div>
    </div>
  );
}

interface TopRow {
  rank: number;
  user: string;
  value: string;
}

/** The two top-hasher tables: each one's section, the header of its figure, its rows and what it says when empty. */
interface TopTableSpec {
  title: string;
  testId: string;
  valueHeader: string;
  rows: (stats: AlgorithmStatsResponse) => { user: string; value: string }[];
  empty: string;
}

const TOP_TABLES: readonly TopTableSpec[] = [
  {
    title: 'Top current hashers',
    testId: 'top-current',
    valueHeader: 'Hashrate',
    rows: (s) =>
      s.top_hashrate.map((h) => ({ user: h.user, value: formatTopHashrate(h.hashrate, s.top_hashrate_units) })),
    empty: 'Nobody is mining this algorithm right now.',
  },
  {
    title: 'All-time top hashers',
    testId: 'top-all-time',
    valueHeader: 'Total hashes',
    rows: (s) =>
      s.top_hashers_past.map((h) => ({ user: h.user, value: formatTopHashes(h.hashes, s.top_hashers_past_units) })),
    empty: 'No shares on this algorithm yet.',
  },
];

/** Rank, username and a figure: short enough for any phone, so it stays a table. */
function topColumns(valueHeader: string): Column<TopRow>[] {
  return [
    { label: 'Rank', cell: (row) => row.rank },
    { label: 'Username', className: 'font-semibold', testId: 'top-user', cell: (row) => row.user },
    { label: valueHeader, align: 'right', testId: 'top-value', cell: (row) => row.value },
  ];
}

function TopTable({ data, table }: { data: AlgorithmStatsResponse | undefined; table: TopTableSpec }) {
  return (
    <DataTable
      testId="top-table"
      className=""
      columns={topColumns(table.valueHeader)}
      rows={data ? table.rows(data).map((row, index) => ({ ...row, rank: index + 1 })) : []}
      // The rank is the row's identity (names may repeat, e.g. anonymous miners).
      rowKey={(row) => row.rank}
      rowTestId="top-row"
      empty={data ? table.empty : '—'}
      stackBelow={false}
    />
  );
}

type Network = AlgorithmStatsResponse['networks'][number];

/**
 * The chains the algorithm mines, its own coin first, then the merge-mined ones: each network as the pool's newest job
 * saw it, the blocks found on it and a link to them. On a phone each chain is a card headed by its coin.
 */
const NETWORK_COLUMNS: readonly Column<Network>[] = [
  {
    label: 'Chain',
    rowHeader: true,
    phone: 'primary',
    testId: 'network-coin',
    cell: (n) => (
      <>
        {n.coin}
        {n.merged && (
          <>
            {' '}
            <span className="ml-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              merge-mined
            </span>
          </>
        )}
      </>
    ),
  },
  { label: 'Difficulty', align: 'right', testId: 'network-difficulty', cell: (n) => formatDifficulty(n.difficulty) },
  {
    label: 'Network hashrate',
    align: 'right',
    testId: 'network-hashrate',
    cell: (n) => formatNetworkHashrate(n.hashrate, n.hashrate_units),
  },
  {
    label: 'Block reward',
    align: 'right',
    testId: 'network-reward',
    cell: (n) => formatBlockReward(n.reward, n.coin),
  },
  { label: 'Height', align: 'right', testId: 'network-height', cell: (n) => formatHeight(n.height) },
  {
    label: 'Blocks found',
    align: 'right',
    testId: 'network-blocks',
    cell: (n) => n.blocks.toLocaleString('en-US'),
  },
  {
    label: 'Blocks',
    heading: <span className="sr-only">Blocks</span>,
    phone: 'end',
    cell: (n) => (
      <Link to={`/blocks?coin=${encodeURIComponent(n.coin)}`} className={linkClass} data-testid="network-blocks-link">
        All blocks<span className="sr-only"> of {n.coin}</span>
      </Link>
    ),
  },
];

function NetworkTable({ data }: { data: AlgorithmStatsResponse | undefined }) {
  return (
    <DataTable
      testId="network-table"
      className=""
      caption="The networks this algorithm mines: difficulty, hashrate, block reward, height and the blocks the pool found"
      columns={NETWORK_COLUMNS}
      rows={data?.networks ?? []}
      rowKey={(n) => n.coin}
      rowTestId={(n) => `network-${n.coin}`}
      empty={data ? 'The pool has not mined on a network of this algorithm yet.' : '—'}
    />
  );
}
