import type { AccountPayoutRecord, BalanceRecord, EarningRecord } from '@lodestone/contract';
import {
  type AlgorithmKey,
  abbreviateTxid,
  coinDisplayDecimals,
  formatApproximateAmount,
  pageOf,
} from '@lodestone/domain';
import { type ReactNode, useId, useState } from 'react';
import {
  type DashboardSource,
  downloadEarningsCsv,
  downloadPayoutsCsv,
  downloadStatement,
} from '../../../api/dashboard';
import { serverErrorText } from '../../../api/errors';
import { CopyButton } from '../../../components/CopyButton';
import { type Column, DataTable } from '../../../components/DataTable';
import { FormMessage, inputClass, linkClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { ExternalLinkIcon } from '../../../components/icons';
import { MiddleEllipsis } from '../../../components/MiddleEllipsis';
import { Pager, QueryState, Section } from '../../../components/sections';
import {
  BALANCE_PRICE_DECIMALS,
  browserTimeZone,
  coinAmountText,
  formatApiDate,
  formatCoinAmount,
  formatHashrate,
  formatLifetime,
  formatPrice,
  formatUsd,
  unitsToNumber,
} from '../../../lib/format';
import { ChartSection } from '../charts/ChartSection';
import { WarningIcon } from '../icons';
import { MESSAGES } from '../messages';
import { useBalances, useEarnings, useLifetimeEarnings, usePayouts, useRevenueChart } from '../queries';
import { AnimatedNumber } from './AnimatedNumber';
import { clampMonth, previousMonth, statementFileName } from './months';
import { saveFile } from './saveFile';

/** Page size of the payments, earnings and lifetime tables (spec 9). */
export const REVENUE_PAGE_SIZE = 10;

/** What only the miner may do on this tab; the observer dashboard passes none (read-only). */
export interface RevenueActions {
  account: string;
  openConversion: () => void;
  openPayout: () => void;
  changeCoin: (ticker: string) => void;
}

/**
 * The Revenue tab (spec "Dashboard"): revenue chart, the settings buttons, the balances table and
 * Payments and Earnings. Every figure comes from the revenue calls; nothing is computed here but the
 * dollar value of a balance (balance × the price the same answer carries) for display.
 */
export function RevenueTab({
  source,
  algorithm,
  actions,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  actions?: RevenueActions;
}) {
  const [timezone] = useState(browserTimeZone);
  return (
    <div className="space-y-6">
      <RevenueChart source={source} algorithm={algorithm} timezone={timezone} />
      <Balances source={source} actions={actions} />
      <PaymentsAndEarnings source={source} algorithm={algorithm} timezone={timezone} actions={actions} />
    </div>
  );
}

function RevenueChart({
  source,
  algorithm,
  timezone,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  timezone: string;
}) {
  return (
    <ChartSection
      title="Revenue"
      testId="revenue-chart"
      what="revenue chart"
      chart={useRevenueChart(source, algorithm, timezone)}
      formatValue={(v) => formatUsd(v)}
    />
  );
}

function Balances({ source, actions }: { source: DashboardSource; actions: RevenueActions | undefined }) {
  const balances = useBalances(source);
  return (
    <Section
      title="Balances"
      testId="balances"
      actions={
        actions && (
          <>
            <button
              type="button"
              className={secondaryButtonClass}
              data-testid="open-conversion-settings"
              onClick={actions.openConversion}
            >
              Open Conversion Settings
            </button>
            <button
              type="button"
              className={primaryButtonClass}
              data-testid="open-payout-settings"
              onClick={actions.openPayout}
            >
              Open Payout Settings
            </button>
          </>
        )
      }
    >
      {balances.data ? (
        <DataTable
          testId="balances-table"
          className=""
          columns={balanceColumns(actions)}
          rows={balances.data}
          rowKey={(row) => row.coin_ticker}
          rowTestId={(row) => `balance-${row.coin_ticker}`}
          empty="No balances yet. Earnings appear here as your shares are credited."
        />
      ) : (
        <QueryState isPending={balances.isPending} error={balances.error} what="balances" />
      )}
    </Section>
  );
}

/** The balances table: on a phone each coin is a card headed by its ticker (and its warning). */
function balanceColumns(actions: RevenueActions | undefined): Column<BalanceRecord>[] {
  return [
    {
      label: 'Coin',
      rowHeader: true,
      phone: 'primary',
      cell: (row) => <CoinWithWarning row={row} actions={actions} />,
    },
    {
      label: 'Coin price',
      align: 'right',
      testId: 'balance-price',
      cell: (row) => (
        <AnimatedNumber
          value={row.coin_price ?? 0}
          text={formatPrice(row.coin_price, BALANCE_PRICE_DECIMALS)}
          format={(n) => formatUsd(n, BALANCE_PRICE_DECIMALS)}
        />
      ),
    },
    {
      label: 'Balance',
      align: 'right',
      testId: 'balance-amount',
      cell: (row) => (
        <AnimatedNumber
          value={unitsToNumber(row.coin_balance, row.coin_decimals)}
          text={coinAmountText(row.coin_balance, row.coin_decimals, row.coin_ticker)}
          format={(n) => formatApproximateAmount(n, coinDisplayDecimals(row.coin_ticker, row.coin_decimals))}
        />
      ),
    },
    {
      label: 'USD value',
      align: 'right',
      testId: 'balance-usd',
      cell: (row) => {
        // The dollar value of a balance: balance × the price the same answer carries, for display only.
        const usd =
          row.coin_price === null ? null : unitsToNumber(row.coin_balance, row.coin_decimals) * row.coin_price;
        return usd === null ? (
          '—'
        ) : (
          <AnimatedNumber
            value={usd}
            text={formatUsd(usd, row.usd_decimals)}
            format={(n) => formatUsd(n, row.usd_decimals)}
          />
        );
      },
    },
  ];
}

function CoinWithWarning({ row, actions }: { row: BalanceRecord; actions: RevenueActions | undefined }) {
  const warning = `${row.coin_ticker} cannot be paid out as things stand (no payout address, or its payouts are paused). Convert the balance to another coin.`;
  return (
    <span className="inline-flex items-center gap-2">
      {row.coin_ticker}
      {row.show_warning &&
        (actions ? (
          <button
            type="button"
            data-testid="balance-warning"
            aria-label={`Convert the ${row.coin_ticker} balance: ${warning}`}
            title={warning}
            onClick={() => actions.changeCoin(row.coin_ticker)}
            className="inline-flex size-7 items-center justify-center rounded-md text-amber-600 hover:bg-amber-50 focus-visible:outline-2 focus-visible:outline-amber-500 dark:text-amber-400 dark:hover:bg-slate-800"
          >
            <WarningIcon className="size-5" />
          </button>
        ) : (
          <span role="img" aria-label={warning} title={warning} className="text-amber-600 dark:text-amber-400">
            <WarningIcon className="size-5" />
          </span>
        ))}
    </span>
  );
}

// ── payments and earnings ───────────────────────────────────────────────────────────────────────

function PaymentsAndEarnings({
  source,
  algorithm,
  timezone,
  actions,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  timezone: string;
  actions: RevenueActions | undefined;
}) {
  return (
    <Section title="Payments and Earnings" testId="payments-and-earnings">
      <div className="space-y-8">
        {actions && <Statement account={actions.account} timezone={timezone} />}
        <Payments source={source} timezone={timezone} account={actions?.account} />
        <Earnings source={source} algorithm={algorithm} timezone={timezone} account={actions?.account} />
        <Lifetime source={source} algorithm={algorithm} timezone={timezone} />
      </div>
    </Section>
  );
}

type DownloadState = { pending: boolean; error: string | null };

/** Runs one download and keeps its state; the file is saved under `fileName`. */
function useDownload(): [DownloadState, (fetchFile: () => Promise<Blob | null>, fileName: string) => Promise<void>] {
  const [state, setState] = useState<DownloadState>({ pending: false, error: null });
  const run = async (fetchFile: () => Promise<Blob | null>, fileName: string) => {
    setState({ pending: true, error: null });
    try {
      const blob = await fetchFile();
      if (blob === null) {
        setState({ pending: false, error: MESSAGES.noPdfData });
        return;
      }
      saveFile(blob, fileName);
      setState({ pending: false, error: null });
    } catch (error) {
      console.error(`Download of ${fileName} failed:`, error);
      setState({ pending: false, error: serverErrorText(error, MESSAGES.downloadFailed) });
    }
  };
  return [state, run];
}

/** The monthly PDF statement: month picker (max and default: the previous month) and Download. */
function Statement({ account, timezone }: { account: string; timezone: string }) {
  const [max] = useState(() => previousMonth(new Date()));
  const [month, setMonth] = useState(max);
  const [download, run] = useDownload();
  const id = useId();
  return (
    <div data-testid="statement">
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">Monthly statement</h3>
      <div className="mt-2 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">
            Month
          </label>
          <input
            id={id}
            type="month"
            max={max}
            value={month}
            data-testid="statement-month"
            className={`${inputClass} w-44`}
            onChange={(event) => setMonth(clampMonth(event.target.value, max))}
          />
        </div>
        <button
          type="button"
          className={primaryButtonClass}
          data-testid="statement-download"
          disabled={download.pending}
          onClick={() => void run(() => downloadStatement(account, month, timezone), statementFileName(month))}
        >
          {download.pending ? 'Downloading…' : 'Download (PDF)'}
        </button>
      </div>
      {download.error && (
        <div className="mt-3">
          <FormMessage error={download.error} />
        </div>
      )}
    </div>
  );
}

function CsvButton({
  label,
  fileName,
  fetchFile,
  testId,
}: {
  label: string;
  fileName: string;
  fetchFile: () => Promise<Blob | null>;
  testId: string;
}) {
  const [download, run] = useDownload();
  return (
    <div className="flex flex-col items-end gap-2">
      <button
        type="button"
        className={secondaryButtonClass}
        data-testid={testId}
        disabled={download.pending}
        onClick={() => void run(fetchFile, fileName)}
      >
        {download.pending ? 'Downloading…' : label}
      </button>
      {download.error && <FormMessage error={download.error} />}
    </div>
  );
}

function SubHeading({ title, action }: { title: string; action?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">{title}</h3>
      {action}
    </div>
  );
}

function Payments({
  source,
  timezone,
  account,
}: {
  source: DashboardSource;
  timezone: string;
  account: string | undefined;
}) {
  const payouts = usePayouts(source, timezone);
  const [page, setPage] = useState(1);
  const { rows, window: paging } = pageOf(payouts.data ?? [], REVENUE_PAGE_SIZE, page);
  return (
    <div data-testid="payments">
      <SubHeading
        title="Past payments"
        action={
          account && (
            <CsvButton
              label="Download CSV"
              fileName="payments.csv"
              testId="payments-csv"
              fetchFile={() => downloadPayoutsCsv(account, timezone)}
            />
          )
        }
      />
      {payouts.data ? (
        <>
          <DataTable
            testId="payments-table"
            columns={PAYMENT_COLUMNS}
            rows={rows}
            // A payout to two addresses gives two rows with one txid: the address tells them apart.
            rowKey={(row) => `${row.payout_date}-${row.coin_ticker}-${row.payout_txid}-${row.payout_address}`}
            rowTestId="payment-row"
            empty="No payments yet."
          />
          <Pager window={paging} onPage={setPage} testId="payments-page" label="Past payments" />
        </>
      ) : (
        <QueryState isPending={payouts.isPending} error={payouts.error} what="payments" />
      )}
    </div>
  );
}

/**
 * The past payments: on a phone each payment is a card headed by its date. The address keeps its
 * ends and gives way in the middle, with a copy button; amounts never wrap.
 */
const PAYMENT_COLUMNS: readonly Column<AccountPayoutRecord>[] = [
  { label: 'Date', phone: 'primary', cell: (row) => formatApiDate(row.payout_date) },
  {
    label: 'Address',
    testId: 'payment-address',
    className: 'max-w-md',
    cell: (row) => <MiddleEllipsis text={row.payout_address} copyLabel="Copy the address" />,
  },
  {
    label: 'Amount',
    align: 'right',
    testId: 'payment-amount',
    cell: (row) => formatCoinAmount(row.coin_balance, row.coin_decimals, row.coin_ticker),
  },
  {
    label: 'TXID',
    testId: 'payment-txid',
    cell: (row) => <PaymentTxid txid={row.payout_txid} url={row.payout_txid_url} />,
  },
];

/** Spec 4: a txid 'Pending' reads 'Pending...' in italics; otherwise the abbreviated txid links to the explorer. */
function PaymentTxid({ txid, url }: { txid: string; url: string | null }) {
  if (txid === 'Pending') return <em>Pending...</em>;
  return (
    <span className="inline-flex items-center gap-1 font-mono text-xs">
      {url ? (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          title={txid}
          className={`${linkClass} inline-flex items-center gap-1`}
        >
          {abbreviateTxid(txid)}
          <ExternalLinkIcon className="size-3.5" />
          <span className="sr-only">(opens the block explorer in a new tab)</span>
        </a>
      ) : (
        <span title={txid}>{abbreviateTxid(txid)}</span>
      )}
      <CopyButton compact text={txid} label="Copy the transaction id" />
    </span>
  );
}

function Earnings({
  source,
  algorithm,
  timezone,
  account,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  timezone: string;
  account: string | undefined;
}) {
  const earnings = useEarnings(source, algorithm, timezone);
  const [page, setPage] = useState(1);
  const { rows, window: paging } = pageOf(earnings.data ?? [], REVENUE_PAGE_SIZE, page);
  return (
    <div data-testid="earnings">
      <SubHeading
        title="Past earnings"
        action={
          account && (
            <CsvButton
              label="Download CSV"
              fileName="earnings.csv"
              testId="earnings-csv"
              fetchFile={() => downloadEarningsCsv(account, algorithm, timezone)}
            />
          )
        }
      />
      {earnings.data ? (
        <>
          <DataTable
            testId="earnings-table"
            columns={EARNING_COLUMNS}
            rows={rows}
            rowKey={(row) => row.earning_timestamp}
            rowTestId="earning-row"
            empty="No earnings on this algorithm yet."
          />
          <Pager window={paging} onPage={setPage} testId="earnings-page" label="Past earnings" />
        </>
      ) : (
        <QueryState isPending={earnings.isPending} error={earnings.error} what="earnings" />
      )}
    </div>
  );
}

/** The past earnings: a day's amounts, one coin a line, each whole on its line. */
const EARNING_COLUMNS: readonly Column<EarningRecord>[] = [
  { label: 'Date', phone: 'primary', cell: (row) => formatApiDate(row.earning_timestamp) },
  { label: 'Average Speed', align: 'right', cell: (row) => formatHashrate(row.speed, row.speed_units) },
  {
    label: 'Amount',
    align: 'right',
    cell: (row) =>
      row.coins.length === 0 ? (
        '—'
      ) : (
        <ul>
          {row.coins.map((coin) => (
            <li key={coin.coin_ticker} data-testid="earning-amount">
              {formatCoinAmount(coin.coin_balance, coin.coin_decimals, coin.coin_ticker)}
            </li>
          ))}
        </ul>
      ),
  },
];

/** Two short columns fit any phone: this one stays a table. */
const LIFETIME_COLUMNS: readonly Column<[string, string]>[] = [
  { label: 'Ticker', rowHeader: true, cell: ([ticker]) => ticker },
  { label: 'Amount', align: 'right', testId: 'lifetime-amount', cell: ([, amount]) => formatLifetime(amount) },
];

function Lifetime({
  source,
  algorithm,
  timezone,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  timezone: string;
}) {
  const lifetime = useLifetimeEarnings(source, algorithm, timezone);
  const [page, setPage] = useState(1);
  const { rows, window: paging } = pageOf(Object.entries(lifetime.data ?? {}), REVENUE_PAGE_SIZE, page);
  return (
    <div data-testid="lifetime">
      <SubHeading title="Lifetime Earnings" />
      {lifetime.data ? (
        <>
          <DataTable
            testId="lifetime-table"
            columns={LIFETIME_COLUMNS}
            rows={rows}
            rowKey={([ticker]) => ticker}
            rowTestId={([ticker]) => `lifetime-${ticker}`}
            empty="No earnings on this algorithm yet."
            stackBelow={false}
          />
          <Pager window={paging} onPage={setPage} testId="lifetime-page" label="Lifetime earnings" />
        </>
      ) : (
        <QueryState isPending={lifetime.isPending} error={lifetime.error} what="lifetime earnings" />
      )}
    </div>
  );
}
