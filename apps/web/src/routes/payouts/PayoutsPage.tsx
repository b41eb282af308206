import type { PoolPayout, PoolPayoutsResponse } from '@lodestone/contract';
import { pageOf } from '@lodestone/domain';
import { useId, useMemo, useState } from 'react';
import { usePoolPayouts } from '../../api/public';
import { CopyButton } from '../../components/CopyButton';
import { type Column, DataTable } from '../../components/DataTable';
import { LoadState } from '../../components/LoadState';
import { PayoutSchemes } from '../../components/PayoutSchemes';
import { PageHeader } from '../../components/publicPage';
import { Pager, Section } from '../../components/sections';
import { browserTimeZone } from '../../lib/format';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { formatPayoutAmount, formatPayoutDate, PAYOUTS_PAGE_SIZE, txidCell } from './payoutRows';
import { formatShare, formatUsdTotal, pieSlices, pieTotal } from './pie';

type ChartEntries = PoolPayoutsResponse['charts']['day'];

const CHARTS = [
  { key: 'day', title: '24h Payouts' },
  { key: 'month', title: 'Last Month Payouts' },
  { key: 'all_time', title: 'All Time Payouts' },
] as const;

/**
 * Payouts ('Pool Payouts'): what the pool paid, per coin in US dollars over 24 hours, the last month
 * and all time, and the newest payouts one by one. A failed call is said on the page (and logged):
 * empty charts alone would read as "the pool has never paid anyone".
 */
export default function PayoutsPage() {
  useDocumentTitle('Pool Payouts');
  const payouts = usePoolPayouts();
  const [timeZone] = useState(browserTimeZone);
  const data = payouts.data;

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-12 sm:px-6" data-testid="payouts-page">
      <PageHeader title="Pool Payouts">
        <p>Every payout the pool sent, valued in US dollars at today's coin prices.</p>
      </PageHeader>

      {!data && <LoadState isPending={payouts.isPending} error={payouts.error} what="payouts" testId="payouts" />}

      <div className="grid gap-6 md:grid-cols-3">
        {CHARTS.map((chart) => (
          <PieCard key={chart.key} id={chart.key} title={chart.title} entries={data?.charts[chart.key]} />
        ))}
      </div>

      <Section title="Latest payouts" testId="payouts-section">
        <PayoutTable payouts={data?.latest} timeZone={timeZone} />
      </Section>

      <PayoutSchemes section="How shares are valued" testId="payouts-schemes" />
    </div>
  );
}

const PIE_RADIUS = 80;

function PieCard({ id, title, entries }: { id: string; title: string; entries: ChartEntries | undefined }) {
  const headingId = useId();
  const slices = useMemo(() => pieSlices(entries ?? [], PIE_RADIUS), [entries]);
  const total = formatUsdTotal(pieTotal(entries ?? []));
  return (
    <section
      aria-labelledby={headingId}
      data-testid={`pie-${id}`}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Total:{' '}
        <span data-testid="pie-total" className="font-semibold text-slate-900 tabular-nums dark:text-white">
          {entries ? total : '—'}
        </span>
      </p>
      <div className="mt-4 flex justify-center">
        <svg
          viewBox={`0 0 ${PIE_RADIUS * 2} ${PIE_RADIUS * 2}`}
          className="size-40"
          role="img"
          aria-label={
            slices.length === 0
              ? `${title}: none`
              : `${title}: ${slices.map((s) => `${s.ticker} ${formatUsdTotal(s.usd)}`).join(', ')}`
          }
        >
          {slices.length === 0 ? (
            <circle
              cx={PIE_RADIUS}
              cy={PIE_RADIUS}
              r={PIE_RADIUS - 1}
              className="fill-slate-100 stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-700"
            />
          ) : (
            slices.map((s) => (
              <path
                key={s.ticker}
                d={s.path}
                fill={s.colour}
                data-testid="pie-slice"
                data-ticker={s.ticker}
                data-colour={s.colour}
                className="stroke-white dark:stroke-slate-900"
                strokeWidth={slices.length > 1 ? 1 : 0}
              />
            ))
          )}
        </svg>
      </div>
      {entries && slices.length === 0 && (
        <p className="mt-4 text-center text-sm text-slate-500 dark:text-slate-400" data-testid="pie-empty">
          No payouts in this period.
        </p>
      )}
      {slices.length > 0 && (
        <ul className="mt-4 space-y-1 text-sm" data-testid="pie-legend">
          {slices.map((s) => (
            <li key={s.ticker} className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
              <span aria-hidden="true" className="size-3 shrink-0 rounded-sm" style={{ backgroundColor: s.colour }} />
              <span className="font-semibold">{s.ticker}</span>
              <span className="ml-auto tabular-nums">{formatUsdTotal(s.usd)}</span>
              <span className="w-14 text-right text-slate-500 tabular-nums dark:text-slate-400">
                {formatShare(s.share)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Date, Amount, TXID: on a phone each payout is a card headed by its date. */
function payoutColumns(timeZone: string): Column<PoolPayout>[] {
  return [
    {
      label: 'Date',
      phone: 'primary',
      testId: 'payout-date',
      cell: (payout) => formatPayoutDate(payout.payout_date, timeZone),
    },
    { label: 'Amount', testId: 'payout-amount', cell: (payout) => formatPayoutAmount(payout) },
    { label: 'TXID', testId: 'payout-txid', cell: (payout) => <Txid payout={payout} /> },
  ];
}

function PayoutTable({ payouts, timeZone }: { payouts: PoolPayout[] | undefined; timeZone: string }) {
  const [page, setPage] = useState(1);
  const view = pageOf(payouts ?? [], PAYOUTS_PAGE_SIZE, page);
  return (
    <>
      <DataTable
        testId="payouts-table"
        className=""
        caption="The pool's newest payouts"
        columns={payoutColumns(timeZone)}
        rows={view.rows}
        // Payouts carry no id and two may share date and txid; the list is only ever replaced whole.
        rowKey={(_, index) => view.window.start + index}
        rowTestId="payout-row"
        empty={payouts ? 'No payouts yet.' : '—'}
      />
      <Pager window={view.window} onPage={setPage} testId="payouts-page-number" label="Payouts" />
    </>
  );
}

function Txid({ payout }: { payout: PoolPayout }) {
  const cell = txidCell(payout);
  if (cell.kind === 'pending') return <em className="text-slate-500 dark:text-slate-400">Pending...</em>;
  if (cell.kind === 'text') {
    return (
      <span className="inline-flex items-center gap-1">
        <span className="font-mono" title={cell.full}>
          {cell.text}
        </span>
        <CopyButton compact text={cell.full} label="Copy the transaction id" />
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1">
      <a
        href={cell.href}
        target="_blank"
        rel="noopener noreferrer"
        title={cell.full}
        className="font-mono text-amber-700 hover:underline dark:text-amber-400"
      >
        {cell.text}
        <span className="sr-only"> (opens the transaction in a new tab)</span>
      </a>
      <CopyButton compact text={cell.full} label="Copy the transaction id" />
    </span>
  );
}
