import type { SoloBlock, SoloResponse, SoloWorker } from '@lodestone/contract';
import { type AlgorithmKey, algorithmByKey } from '@lodestone/domain';
import type { DashboardSource } from '../../../api/dashboard';
import { BlockStatus, ExplorerLink } from '../../../components/blockMarks';
import { type Column, DataTable } from '../../../components/DataTable';
import { Section, StatCard } from '../../../components/sections';
import { formatDateTime } from '../../../lib/dates';
import { formatHashrate } from '../../../lib/format';
import { safeExternalUrl } from '../../../lib/links';
import { formatBlockReward, formatDifficulty, formatHeight, formatRatioPercent } from '../../../lib/network';
import { formatPercent } from '../../../lib/percent';
import { useMiningSolo } from '../queries';
import { formatDailyOdds, formatExpectedTime, formatSiDifficulty, showsSoloPanel, soloCreditedText } from './solo';
import { WorkerStatus } from './WorkerStatus';

/**
 * The Mining tab's solo panel (docs/dashboard.md, Solo mining), shown when the account mines on a solo port of the
 * algorithm or found solo blocks there: its solo hashrate and odds of a block, the network's block difficulty and
 * reward, its solo round, each solo worker's best share and its solo blocks. Every figure is the API's.
 */
export function SoloPanel({
  source,
  algorithm,
  timezone,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  timezone: string;
}) {
  const data = useMiningSolo(source, algorithm).data;
  // An account that does not mine solo gets no panel; one whose answer has not come (or failed) gets none yet either:
  // the panel appears with its figures, never as a "could not load" box on every miner's dashboard.
  if (data === undefined || !showsSoloPanel(data)) return null;
  return (
    <Section title="Solo mining" testId="solo-panel">
      <SoloFigures data={data} algorithm={algorithm} timezone={timezone} />
    </Section>
  );
}

const noteClass = 'text-sm text-slate-600 dark:text-slate-400';
const subheadingClass = 'mt-6 text-base font-semibold text-slate-900 dark:text-white';

function SoloFigures({ data, algorithm, timezone }: { data: SoloResponse; algorithm: AlgorithmKey; timezone: string }) {
  const { network, odds, round } = data;
  const at = (iso: string) => formatDateTime(iso, { timeZone: timezone });
  const fee = formatPercent(data.fee_percent);
  const cards: { label: string; hint?: string; testId: string; value: string }[] = [
    {
      label: 'Solo hashrate',
      hint: 'last 24 h',
      testId: 'solo-hashrate',
      value: formatHashrate(data.hashrate, data.hashrate_units),
    },
    {
      label: 'Chance of a block today',
      hint: 'at the 24-hour hashrate',
      testId: 'solo-odds-day',
      value: odds ? formatDailyOdds(odds.p_day) : '—',
    },
    {
      label: 'Expected time to a block',
      hint: 'at the 24-hour hashrate',
      testId: 'solo-expected-time',
      value: odds ? formatExpectedTime(odds.expected_seconds) : '—',
    },
    { label: 'Solo fee', testId: 'solo-fee', value: fee },
    {
      label: 'Block difficulty',
      testId: 'solo-network-difficulty',
      value: network ? formatSiDifficulty(network.block_difficulty) : '—',
    },
    {
      label: 'Block reward',
      testId: 'solo-network-reward',
      value: network && data.coin ? formatBlockReward(network.block_reward, data.coin) : '—',
    },
    {
      label: 'Round effort',
      hint: round ? `since ${at(round.started_at)}` : 'no solo share yet',
      testId: 'solo-round-effort',
      value: formatRatioPercent(round?.effort ?? null),
    },
    {
      label: 'Best share this round',
      ...(round?.best_at ? { hint: `at ${at(round.best_at)}` } : {}),
      testId: 'solo-round-best',
      value: round?.best_difficulty ? formatSiDifficulty(round.best_difficulty) : '—',
    },
  ];
  return (
    <>
      <p className={noteClass} data-testid="solo-intro">
        A block found by one of your workers on a solo port is yours, less the {fee} solo fee, credited when it matures;
        their shares are not paid by PPS.
        {data.coin && ` Figures for the ${data.coin} network${data.demo ? ' (the built-in demo network)' : ''}.`}
      </p>
      {!network && (
        <p className={`mt-2 ${noteClass}`} data-testid="solo-no-network">
          The pool has not mined {algorithmByKey(algorithm)?.name ?? algorithm} yet: the odds appear once it has.
        </p>
      )}
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" data-testid="solo-cards">
        {cards.map((card) => (
          <StatCard key={card.testId} wrap="words" {...card} />
        ))}
      </dl>
      <p className={`mt-3 ${noteClass}`}>
        {network ? `A block takes one share of difficulty ${formatDifficulty(network.block_difficulty)} or more. ` : ''}
        The odds count a day at your solo workers' hashrate of the last 24 hours; the round is your solo work since your
        last solo block{data.coin ? ` on ${data.coin}` : ''}, and its effort that work ÷ the block difficulty.
      </p>

      <h3 className={subheadingClass}>Solo workers</h3>
      <DataTable
        testId="solo-workers-table"
        caption="Your solo workers with their best share ever"
        columns={workerColumns(at)}
        rows={data.workers}
        rowKey={(worker) => worker.id}
        rowTestId="solo-worker-row"
        empty={<span data-testid="solo-workers-empty">No solo worker on this algorithm now.</span>}
      />

      <h3 className={subheadingClass}>Solo blocks</h3>
      <DataTable
        testId="solo-blocks-table"
        caption="The blocks your solo workers found, newest first"
        columns={blockColumns(at)}
        rows={data.blocks}
        rowKey={(block) => block.hash}
        rowTestId="solo-block-row"
        empty={
          <span data-testid="solo-blocks-empty">
            No solo block yet: the first one your workers find will be listed here.
          </span>
        }
      />
    </>
  );
}

function workerColumns(at: (iso: string) => string): Column<SoloWorker>[] {
  return [
    { label: 'Name', rowHeader: true, phone: 'primary', testId: 'solo-worker-name', cell: (w) => w.name },
    {
      label: 'Status',
      testId: 'solo-worker-status',
      cell: (w) => <WorkerStatus state={w.online ? 'online' : 'offline'} />,
    },
    {
      label: 'Hashrate (24 h)',
      align: 'right',
      testId: 'solo-worker-hashrate',
      cell: (w) => formatHashrate(w.hashrate, w.hashrate_units),
    },
    {
      label: 'Chance today',
      align: 'right',
      testId: 'solo-worker-odds',
      cell: (w) => (w.p_day === null ? '—' : formatDailyOdds(w.p_day)),
    },
    {
      label: 'Best share ever',
      align: 'right',
      testId: 'solo-worker-best',
      title: (w) => (w.best_difficulty === null ? undefined : `Difficulty ${formatDifficulty(w.best_difficulty)}`),
      cell: (w) => (w.best_difficulty === null ? '—' : formatSiDifficulty(w.best_difficulty)),
    },
    {
      label: 'Best share at',
      testId: 'solo-worker-best-at',
      cell: (w) => (w.best_at === null ? '—' : at(w.best_at)),
    },
  ];
}

function blockColumns(at: (iso: string) => string): Column<SoloBlock>[] {
  return [
    {
      label: 'Height',
      rowHeader: true,
      phone: 'primary',
      testId: 'solo-block-height',
      cell: (block) => <BlockHeight block={block} />,
    },
    { label: 'Found', testId: 'solo-block-found', cell: (block) => at(block.found_at) },
    { label: 'Worker', testId: 'solo-block-worker', cell: (block) => block.worker },
    {
      label: 'Reward',
      align: 'right',
      testId: 'solo-block-reward',
      cell: (block) => formatBlockReward(block.reward, block.coin),
    },
    { label: 'Status', testId: 'solo-block-status', cell: (block) => <BlockStatus block={block} /> },
    {
      label: 'Effort',
      align: 'right',
      testId: 'solo-block-effort',
      cell: (block) => formatRatioPercent(block.effort),
    },
    {
      label: 'Credited',
      align: 'right',
      testId: 'solo-block-credited',
      title: (block) => `The reward less the ${formatPercent(block.fee_percent)} solo fee kept on this block`,
      cell: (block) => soloCreditedText(block),
    },
  ];
}

/** The height, linked to the block on a public explorer when there is one (never on the demo network). */
function BlockHeight({ block }: { block: SoloBlock }) {
  const href = safeExternalUrl(block.explorer_url);
  const height = formatHeight(block.height);
  if (!href) return height;
  return (
    <ExplorerLink href={href} testId="solo-block-link" className="text-amber-700 hover:underline dark:text-amber-400">
      {height}
    </ExplorerLink>
  );
}
