import { pageOf } from '@lodestone/domain';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { primaryButtonClass } from '../../components/form';
import { InfoIcon } from '../../components/icons';
import { PageHeader } from '../../components/publicPage';
import { Pager } from '../../components/sections';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { countdownText, formatTargetDate, MEDALS, RANKING_PAGE_SIZE, rankedTeams, rankedUsers } from './lottery';
import {
  LOTTERY_COUNTDOWN,
  LOTTERY_PRIZE,
  LOTTERY_TARGET_DATE,
  type LotteryTeam,
  type LotteryUser,
  SAMPLE_FEED,
  SAMPLE_GRAPH,
  SAMPLE_TEAMS,
} from './sampleData';
import { TeamsChart } from './TeamsChart';

/** Gold, silver and bronze for positions 1–3 (team cards and the top three of each list). */
const PLACE_STYLES = {
  1: 'border-amber-400 bg-amber-50 dark:border-amber-500/70 dark:bg-amber-950/30',
  2: 'border-slate-400 bg-slate-100 dark:border-slate-400/70 dark:bg-slate-800/60',
  3: 'border-orange-400 bg-orange-50 dark:border-orange-600/70 dark:bg-orange-950/30',
} as const;

const ROW_PLACE = {
  1: 'bg-amber-100/70 dark:bg-amber-900/30',
  2: 'bg-slate-200/70 dark:bg-slate-700/50',
  3: 'bg-orange-100/70 dark:bg-orange-900/30',
} as const;

/**
 * Lottery: introduction with the countdown, Ranking, Graph and Feed. The page shows static sample
 * data only (docs/website.md, Lottery and Sats4Soup); the page says so, so no visitor takes them for results.
 */
export default function LotteryPage() {
  useDocumentTitle('Lottery');
  return (
    <div className="mx-auto max-w-7xl space-y-14 px-4 py-12 sm:px-6" data-testid="lottery-page">
      <section aria-labelledby="lottery-intro" className="space-y-6">
        <PageHeader title="Lottery">
          <p id="lottery-intro" className="max-w-3xl text-lg">
            Join a team and mine. The team that mines the most blocks by the end of the round wins{' '}
            <strong className="text-slate-900 dark:text-white">{LOTTERY_PRIZE}</strong>, shared among its members by the
            blocks each of them mined.
          </p>
        </PageHeader>
        <p
          role="note"
          data-testid="lottery-sample-notice"
          className="flex max-w-3xl gap-3 rounded-xl border border-sky-200 bg-sky-50 p-4 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-200"
        >
          <InfoIcon className="mt-0.5 size-5 shrink-0" />
          <span>
            Sample data: the teams, players and figures on this page illustrate how the lottery works. They are not
            results of this pool.
          </span>
        </p>
        <div className="flex flex-wrap items-center gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <div>
            <p className="text-sm text-slate-500 dark:text-slate-400">Round ends in</p>
            <p
              data-testid="lottery-countdown"
              className="text-3xl font-bold text-slate-900 tabular-nums dark:text-white"
            >
              {countdownText(LOTTERY_COUNTDOWN.days, LOTTERY_COUNTDOWN.hours)}
            </p>
          </div>
          <div>
            <p className="text-sm text-slate-500 dark:text-slate-400">Final day</p>
            <p className="text-xl font-semibold text-slate-900 dark:text-white">
              <time dateTime={LOTTERY_TARGET_DATE} data-testid="lottery-target">
                {formatTargetDate(LOTTERY_TARGET_DATE)}
              </time>
            </p>
          </div>
          <div>
            <p className="text-sm text-slate-500 dark:text-slate-400">Prize</p>
            <p className="text-xl font-semibold text-amber-600 dark:text-amber-400">{LOTTERY_PRIZE}</p>
          </div>
          <Link to="/get-started" className={`${primaryButtonClass} ml-auto`}>
            Start mining
          </Link>
        </div>
      </section>

      <TitledSection title="Ranking" titleId="lottery-ranking" testId="lottery-ranking">
        <div className="mt-6 grid gap-6 lg:grid-cols-3">
          {rankedTeams(SAMPLE_TEAMS).map((team) => (
            <TeamCard key={team.name} team={team} />
          ))}
        </div>
      </TitledSection>

      <TitledSection
        title="Graph"
        titleId="lottery-graph-title"
        className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="mt-4">
          <TeamsChart series={SAMPLE_GRAPH} />
        </div>
      </TitledSection>

      <TitledSection title="Feed" titleId="lottery-feed" testId="lottery-feed">
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {SAMPLE_FEED.map((card, i) => (
            <li
              key={card.title}
              data-testid="feed-card"
              className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
            >
              {/* A placeholder thumbnail: no video is published yet. */}
              <div
                aria-hidden="true"
                className={`relative flex aspect-video items-center justify-center bg-linear-to-br ${THUMBNAILS[i % THUMBNAILS.length]}`}
              >
                <span className="flex size-12 items-center justify-center rounded-full bg-black/40 text-white">
                  <svg viewBox="0 0 24 24" className="ml-1 size-6 fill-current" aria-hidden="true">
                    <path d="M7 5v14l12-7z" />
                  </svg>
                </span>
              </div>
              <div className="flex items-center gap-3 p-4">
                <span
                  aria-hidden="true"
                  className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-200 text-sm font-bold text-slate-700 uppercase dark:bg-slate-700 dark:text-slate-200"
                >
                  {card.username.slice(0, 2)}
                </span>
                <div className="min-w-0">
                  <p className="truncate font-semibold text-slate-900 dark:text-white">{card.title}</p>
                  <p className="truncate text-sm text-slate-500 dark:text-slate-400">{card.username}</p>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </TitledSection>
    </div>
  );
}

/** One of the page's parts under its heading (`titleId`), which names the section. */
function TitledSection({
  title,
  titleId,
  testId,
  className,
  children,
}: {
  title: string;
  titleId: string;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={titleId} data-testid={testId} className={className}>
      <h2 id={titleId} className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
        {title}
      </h2>
      {children}
    </section>
  );
}

const THUMBNAILS = [
  'from-amber-400 to-orange-600',
  'from-sky-400 to-indigo-600',
  'from-emerald-400 to-teal-600',
  'from-rose-400 to-fuchsia-600',
] as const;

function TeamCard({ team }: { team: LotteryTeam }) {
  const [page, setPage] = useState(1);
  const ranked = rankedUsers(team.users);
  const view = pageOf(ranked, RANKING_PAGE_SIZE, page);
  const medal = MEDALS[team.position];
  return (
    <article
      data-testid={`team-${team.position}`}
      className={`rounded-2xl border-2 p-5 shadow-sm ${PLACE_STYLES[team.position]}`}
    >
      <header className="flex items-center gap-3">
        <Medal position={team.position} label={`${medal.label} medal, position ${team.position}`} />
        <div>
          <h3 className="text-lg font-bold text-slate-900 dark:text-white">{team.name}</h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            <span data-testid="team-total" className="font-semibold tabular-nums">
              {team.totalBlocks}
            </span>{' '}
            blocks
          </p>
        </div>
      </header>
      <DataTable
        columns={RANKING_COLUMNS}
        rows={view.rows.map((user, i) => ({ user, rank: view.window.start + i + 1 }))}
        rowKey={({ user }) => user.username}
        rowTestId="team-user"
        rowProps={({ rank }) => ({
          className: `${rank <= 3 ? ROW_PLACE[rank as 1 | 2 | 3] : ''} text-slate-800 dark:text-slate-200`,
        })}
        className="mt-4"
        tableClassName="w-full text-sm"
        headClassName="text-left text-xs text-slate-500 uppercase dark:text-slate-400"
        bodyClassName=""
        headerCellClassName="py-1 font-semibold"
        cellClassName="py-1"
        stackBelow={false}
      />
      <Pager
        window={view.window}
        onPage={setPage}
        testId={`team-${team.position}-page`}
        label={`${team.name} players`}
      />
    </article>
  );
}

/** A team's ranking: three short columns, a table on any screen; the first three rows in their medal's colour. */
const RANKING_COLUMNS: Column<{ user: LotteryUser; rank: number }>[] = [
  { label: '#', className: 'pr-2', cellClassName: 'rounded-l pl-1 tabular-nums', cell: ({ rank }) => rank },
  { label: 'Username', className: 'pr-2', cell: ({ user }) => user.username },
  {
    label: 'Blocks',
    align: 'right',
    cellClassName: 'rounded-r pr-1 tabular-nums',
    cell: ({ user }) => user.minedBlocks,
  },
];

const MEDAL_COLOURS = {
  1: { ribbon: 'fill-sky-500', disc: 'fill-amber-400', rim: 'stroke-amber-600' },
  2: { ribbon: 'fill-sky-500', disc: 'fill-slate-300', rim: 'stroke-slate-500' },
  3: { ribbon: 'fill-sky-500', disc: 'fill-orange-400', rim: 'stroke-orange-700' },
} as const;

/** A medal drawn in SVG (emoji medals depend on the visitor's fonts), with its position on it. */
function Medal({ position, label }: { position: 1 | 2 | 3; label: string }) {
  const colours = MEDAL_COLOURS[position];
  return (
    <svg viewBox="0 0 32 40" className="h-10 w-8 shrink-0" role="img" aria-label={label}>
      <path d="M8 0h6l4 14h-6zM24 0h-6l-4 14h6z" className={colours.ribbon} />
      <circle cx="16" cy="26" r="12" strokeWidth="2" className={`${colours.disc} ${colours.rim}`} />
      <text x="16" y="31" textAnchor="middle" className="fill-slate-900 text-[13px] font-bold">
        {position}
      </text>
    </svg>
  );
}
