import type { BalanceRecord } from '@lodestone/contract';
import { coinDisplayDecimals, formatApproximateAmount } from '@lodestone/domain';
import type { DashboardSource } from '../../../api/dashboard';
import { type Column, DataTable } from '../../../components/DataTable';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { LoadState } from '../../../components/LoadState';
import { Section } from '../../../components/sections';
import { BALANCE_PRICE_DECIMALS, coinAmountText, formatPrice, formatUsd, unitsToNumber } from '../../../lib/format';
import { WarningIcon } from '../icons';
import { DASHBOARD_RETRY, useBalances } from '../queries';
import { AnimatedNumber } from './AnimatedNumber';
import type { RevenueActions } from './actions';

/** The balances table with the conversion and payout settings buttons (the miner only). */
export function Balances({ source, actions }: { source: DashboardSource; actions: RevenueActions | undefined }) {
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
        <LoadState retry={DASHBOARD_RETRY} isPending={balances.isPending} error={balances.error} what="balances" />
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
