import type { BlockRow, BlocksResponse } from '@lodestone/contract';
import { type AlgorithmKey, algorithmByName, pageWindow } from '@lodestone/domain';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { STATS_REFRESH_MS, usePoolBlocks } from '../../api/public';
import { AlgorithmPageHeader } from '../../components/AlgorithmPageHeader';
import { BlockStatus, ExplorerLink, SoloBadge } from '../../components/blockMarks';
import { CopyButton } from '../../components/CopyButton';
import { type Column, DataTable } from '../../components/DataTable';
import { LastUpdateFailed } from '../../components/LastUpdateFailed';
import { LoadState } from '../../components/LoadState';
import { MiddleEllipsis } from '../../components/MiddleEllipsis';
import { Pager, Section, StatCard } from '../../components/sections';
import { formatDateTime } from '../../lib/dates';
import { browserTimeZone } from '../../lib/format';
import { safeExternalUrl } from '../../lib/links';
import {
  formatBlockReward,
  formatDifficulty,
  formatHeight,
  formatNetworkHashrate,
  formatRatioPercent,
} from '../../lib/network';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSelectedAlgorithm } from '../../state/hooks';
import {
  blocksSearch,
  coinFromSearch,
  effortTone,
  type LuckRow,
  luckRows,
  pageFromSearch,
  type Tone,
} from './blockRows';

const REFRESH_SECONDS = STATS_REFRESH_MS / 1000;

/**
 * Blocks ('Pool Blocks', docs/website.md, Blocks) of the algorithm chosen in the nav: one chain at a time (`?coin=`,
 * the algorithm's own coin by default, then the coins merge-mined with it), its network, the open round's effort,
 * the pool's luck over 24 hours, 7 and 30 days, and the blocks found, newest first, a page at a time (`?page=`).
 * Refreshed every 30 s like the stats page. Choosing another algorithm in the nav goes back to its own coin's
 * first page: another algorithm's chain and page mean nothing there.
 */
export default function BlocksPage() {
  useDocumentTitle('Pool Blocks');
  const [algorithmName] = useSelectedAlgorithm();
  const algorithm = algorithmByName(algorithmName) ?? { key: 'scrypt' as const, name: 'SCRYPT' as const };
  const [search, setSearch] = useSearchParams();
  const [timeZone] = useState(browserTimeZone);

  // The chain and page in the address belong to the algorithm they were chosen on; once another one is
  // chosen they are dropped: here at once, and from the address right after. Until the address has
  // changed, its old query is ignored, so no render in between asks the new algorithm for the old chain.
  const shownAlgorithm = useRef<AlgorithmKey>(algorithm.key);
  const staleSearch = useRef<string | null>(null);
  const switched =
    shownAlgorithm.current !== algorithm.key ||
    (staleSearch.current !== null && staleSearch.current === search.toString());
  useEffect(() => {
    if (shownAlgorithm.current === algorithm.key) return;
    shownAlgorithm.current = algorithm.key;
    staleSearch.current = search.toString();
    setSearch({}, { replace: true });
  }, [algorithm.key, search, setSearch]);
  useEffect(() => {
    if (staleSearch.current !== search.toString()) staleSearch.current = null;
  }, [search]);
  const coin = switched ? undefined : coinFromSearch(search.get('coin'));
  const page = switched ? 1 : pageFromSearch(search.get('page'));

  const blocks = usePoolBlocks(algorithm.key, coin, page);
  const data = blocks.data;

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-12 sm:px-6" data-testid="blocks-page" data-loaded={!!data}>
      <AlgorithmPageHeader title="Pool Blocks" algorithm={algorithm.name} testId="blocks-algorithm">
        : the blocks the pool found, its luck and the network it mines on. Updated every {REFRESH_SECONDS} seconds;
        choose another algorithm in the menu bar.
      </AlgorithmPageHeader>

      {data?.demo && (
        <p data-testid="blocks-demo-note" role="note" className="text-sm text-amber-700 dark:text-amber-400">
          This algorithm runs on the built-in demo network, not on a real coin network: these blocks are on demo chains
          that no public explorer knows.
        </p>
      )}

      <LastUpdateFailed query={blocks} refreshSeconds={REFRESH_SECONDS} />

      {data ? (
        <>
          {data.chains.length > 0 && <ChainTabs chains={data.chains} coin={data.coin} />}
          <NetworkSection data={data} algorithm={algorithm.name} timeZone={timeZone} />
          <LuckSection data={data} timeZone={timeZone} />
          <Section title={data.coin ? `${data.coin} blocks found` : 'Blocks found'} testId="blocks-section">
            <BlocksTable data={data} timeZone={timeZone} busy={blocks.isPlaceholderData} />
            <Pager
              window={pageWindow(data.total, data.page_size, data.page)}
              onPage={(next) => setSearch(blocksSearch(coin, next))}
              testId="blocks-page-number"
              label="Blocks"
            />
          </Section>
        </>
      ) : (
        <LoadState
          isPending={blocks.isPending}
          error={blocks.error}
          what="blocks"
          retry={`Trying again every ${REFRESH_SECONDS} seconds.`}
          testId="blocks"
        />
      )}
    </div>
  );
}

/** The chains of the algorithm, its own coin first, each with its block count; the one shown is marked. */
function ChainTabs({ chains, coin }: { chains: BlocksResponse['chains']; coin: string | null }) {
  return (
    <nav aria-label="Chains" data-testid="chain-tabs">
      <ul className="flex flex-wrap gap-1 rounded-xl border border-slate-200 bg-slate-100 p-1 sm:inline-flex dark:border-slate-800 dark:bg-slate-900">
        {chains.map((chain) => {
          const active = chain.coin === coin;
          return (
            <li key={chain.coin}>
              <Link
                to={blocksSearch(chain.coin, 1)}
                aria-current={active ? 'page' : undefined}
                data-testid={`chain-${chain.coin}`}
                title={chain.name}
                className={`inline-flex flex-wrap items-baseline gap-x-1.5 rounded-lg px-4 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 ${
                  active
                    ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white'
                    : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
                }`}
              >
                {chain.coin}
                {chain.merged && <span className="text-xs font-normal">merge-mined</span>}
                <span className="text-xs font-normal whitespace-nowrap tabular-nums" data-testid="chain-blocks">
                  {chain.blocks.toLocaleString('en-US')} {chain.blocks === 1 ? 'block' : 'blocks'}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The chain's network; before the pool has mined on it (or on the algorithm at all), a sentence saying so. */
function NetworkSection({ data, algorithm, timeZone }: { data: BlocksResponse; algorithm: string; timeZone: string }) {
  const network = data.network;
  return (
    <Section title={data.coin ? `${data.coin} network` : 'Network'} testId="blocks-network">
      {network ? (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            <StatCard label="Height" value={formatHeight(network.height)} testId="network-height" />
            <StatCard label="Difficulty" value={formatDifficulty(network.difficulty)} testId="network-difficulty" />
            <StatCard
              label="Network hashrate"
              value={formatNetworkHashrate(network.hashrate, network.hashrate_units)}
              testId="network-hashrate"
            />
            <StatCard
              label="Block reward"
              value={formatBlockReward(network.reward, network.coin)}
              testId="network-reward"
            />
          </dl>
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
            As the pool's newest {network.coin} job saw it, {formatDateTime(network.observed_at, { timeZone })}.
          </p>
        </>
      ) : (
        <p data-testid="network-none" className="text-sm text-slate-600 dark:text-slate-400">
          {data.coin
            ? `The pool has not mined on the ${data.coin} network yet.`
            : `The pool has not mined ${algorithm} yet.`}
        </p>
      )}
    </Section>
  );
}

const TONE_CLASS: Record<Tone, string> = {
  lucky: 'text-green-700 dark:text-green-400',
  unlucky: 'text-red-700 dark:text-red-400',
  even: 'text-slate-700 dark:text-slate-300',
};

const TONE_WORDS: Record<Tone, string> = { lucky: 'lucky', unlucky: 'unlucky', even: 'as expected' };

/** A percent coloured by what it says: green when lucky, red when unlucky (with the word for screen readers). */
function TonedPercent({ text, tone, testId }: { text: string; tone: Tone | null; testId: string }) {
  return (
    <span
      data-testid={testId}
      data-tone={tone ?? undefined}
      className={`font-semibold ${tone ? TONE_CLASS[tone] : 'text-slate-500 dark:text-slate-400'}`}
    >
      {text}
      {tone && <span className="sr-only"> ({TONE_WORDS[tone]})</span>}
    </span>
  );
}

const LUCK_COLUMNS: readonly Column<LuckRow>[] = [
  { label: 'Period', rowHeader: true, phone: 'primary', testId: 'luck-period', cell: (row) => row.period },
  {
    label: 'Luck',
    align: 'right',
    cell: (row) => <TonedPercent text={row.luck} tone={row.luckTone} testId="luck-luck" />,
  },
  {
    label: 'Mean effort',
    align: 'right',
    cell: (row) => <TonedPercent text={row.effort} tone={row.effortTone} testId="luck-effort" />,
  },
  { label: 'Blocks', align: 'right', testId: 'luck-blocks', cell: (row) => row.blocks },
];

/**
 * The open round's effort so far, and the pool's luck over three periods: blocks found ÷ blocks its work should have
 * found, and the mean effort of those blocks.
 */
function LuckSection({ data, timeZone }: { data: BlocksResponse; timeZone: string }) {
  const { round } = data;
  return (
    <Section title="Round and luck" testId="blocks-luck">
      <div className="grid gap-4 lg:grid-cols-3 lg:items-start">
        <dl>
          <StatCard
            label="Current round effort"
            value={formatRatioPercent(round.effort)}
            testId="round-effort"
            hint={round.started_at ? `since ${formatDateTime(round.started_at, { timeZone })}` : 'no shares yet'}
          />
        </dl>
        <DataTable
          testId="luck-table"
          className="lg:col-span-2"
          caption={`The pool's luck${data.coin ? ` on ${data.coin}` : ''} over the last 24 hours, 7 days and 30 days`}
          columns={LUCK_COLUMNS}
          rows={luckRows(data.luck)}
          rowKey={(row) => row.period}
          rowTestId="luck-row"
        />
      </div>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
        A block's effort is the work of its round ÷ the network difficulty: below 100% it came sooner than expected
        (lucky), above 100% later. Luck is the blocks found ÷ the blocks the pool's work should have found (above 100%
        is lucky); a period without blocks shows a dash.
      </p>
      <p data-testid="luck-solo-note" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Blocks marked Solo were found on a solo port. Each is its finder's own work and reward, so it counts neither in
        the pool's luck nor in its round; its effort is its finder's work since their previous solo block on this chain.
      </p>
    </Section>
  );
}

/**
 * Height, Hash, Found, Reward, Status, Effort: on a phone each block is a card headed by its height. A solo block
 * carries a 'Solo' badge beside its height.
 */
function blockColumns(coin: string, timeZone: string): Column<BlockRow>[] {
  return [
    {
      label: 'Height',
      rowHeader: true,
      phone: 'primary',
      testId: 'block-height',
      cell: (block) => (
        <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
          {formatHeight(block.height)}
          {block.solo && (
            <SoloBadge testId="block-solo" title="Found on a solo port: the reward goes to its finder" tone="slate" />
          )}
        </span>
      ),
    },
    { label: 'Hash', testId: 'block-hash', cell: (block) => <BlockHash block={block} /> },
    {
      label: 'Found',
      testId: 'block-found',
      cell: (block) => formatDateTime(block.found_at, { timeZone }),
    },
    {
      label: 'Reward',
      align: 'right',
      testId: 'block-reward',
      cell: (block) => formatBlockReward(block.reward, coin),
    },
    { label: 'Status', testId: 'block-status', cell: (block) => <BlockStatus block={block} /> },
    {
      label: 'Effort',
      align: 'right',
      cell: (block) => (
        <TonedPercent text={formatRatioPercent(block.effort)} tone={effortTone(block.effort)} testId="block-effort" />
      ),
    },
  ];
}

function BlocksTable({ data, timeZone, busy }: { data: BlocksResponse; timeZone: string; busy: boolean }) {
  return (
    <DataTable
      testId="blocks-table"
      className=""
      caption={data.coin ? `The ${data.coin} blocks the pool found, newest first` : 'The blocks the pool found'}
      // Blocks are always of a chain: without one (nothing mined yet) there are no rows.
      columns={blockColumns(data.coin ?? '', timeZone)}
      rows={data.blocks}
      rowKey={(block) => block.hash}
      rowTestId="block-row"
      busy={busy}
      empty={
        <span data-testid="blocks-empty">
          {data.coin ? `No ${data.coin} blocks found yet` : 'No blocks found yet'}: the first one the pool finds will be
          listed here.
        </span>
      }
    />
  );
}

/**
 * The block hash keeps its beginning and last eight characters and gives way in the middle; it links to the block on a
 * public explorer when there is one (never on the demo network), and can be copied either way.
 */
function BlockHash({ block }: { block: BlockRow }) {
  const href = safeExternalUrl(block.explorer_url);
  const hash = <MiddleEllipsis text={block.hash} />;
  return (
    <span className="inline-flex max-w-full min-w-0 items-center gap-1">
      {href ? (
        <ExplorerLink
          href={href}
          testId="block-link"
          className="inline-block w-44 max-w-full min-w-0 text-amber-700 hover:underline dark:text-amber-400"
        >
          {hash}
        </ExplorerLink>
      ) : (
        <span className="inline-block w-44 max-w-full min-w-0">{hash}</span>
      )}
      <CopyButton compact text={block.hash} label="Copy the block hash" />
    </span>
  );
}
