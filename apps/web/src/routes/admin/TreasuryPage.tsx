import type { AdminTreasuryResponse, TreasuryCoin } from '@lodestone/contract';
import { useQuery } from '@tanstack/react-query';
import { getTreasury } from '../../api/admin';
import { queryKeys } from '../../api/queryKeys';
import { Panel } from '../../components/AccountPage';
import { type Column, DataTable } from '../../components/DataTable';
import { secondaryButtonClass } from '../../components/form';
import { LoadState } from '../../components/LoadState';
import { ageText } from '../../lib/format';
import { AdminShell } from './AdminShell';
import { isFeeShort, isShort, isStale, plural, shortCoins } from './treasury';

/**
 * Treasury (ours, docs/admin.md, Treasury): per coin of the catalogue, what the pool owes its miners,
 * what the next payout run pays, what the hot wallet held at its last read and how long ago, what it
 * lacks (marked), what waits, and the pool's own profit and loss. Read once when the page opens and on
 * Refresh: each read is recorded in the admin's log.
 */
export default function TreasuryPage() {
  return (
    <AdminShell title="Treasury" width="max-w-7xl">
      <TreasuryTable />
    </AdminShell>
  );
}

function TreasuryTable() {
  const treasury = useQuery({
    queryKey: queryKeys.adminTreasury,
    queryFn: ({ signal }) => getTreasury(signal),
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
  if (!treasury.data) {
    return (
      <Panel title="Coins">
        <LoadState isPending={treasury.isPending} error={treasury.error} what="treasury" testId="treasury" />
      </Panel>
    );
  }
  const answer = treasury.data;
  const short = shortCoins(answer);
  return (
    <Panel
      title="Coins"
      testId="treasury"
      description={`Figures of ${answer.generated_at.slice(0, 19).replace('T', ' ')} UTC; amounts exact, in coin units.`}
      actions={
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={treasury.isFetching}
          onClick={() => void treasury.refetch()}
        >
          {treasury.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      }
    >
      {short.length > 0 ? (
        <p
          role="alert"
          data-testid="treasury-short"
          className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800 dark:bg-red-950 dark:text-red-300"
        >
          {`Short of what is due: ${short.join(', ')}. Fund these wallets; their due payouts wait until then.`}
        </p>
      ) : (
        <p data-testid="treasury-covered" className="text-sm text-slate-600 dark:text-slate-400">
          Every hot wallet covers what is due.
        </p>
      )}
      <DataTable
        testId="treasury-table"
        columns={columns(answer)}
        rows={answer.coins}
        rowKey={(coin) => coin.coin}
        rowTestId={(coin) => `treasury-row-${coin.coin}`}
        rowProps={(coin) => ({ className: isShort(coin) ? 'align-top bg-red-50/60 dark:bg-red-950/40' : 'align-top' })}
        caption="Treasury per coin"
        className="mt-4"
      />
    </Panel>
  );
}

const muted = 'block text-xs text-slate-500 dark:text-slate-400';
const alert = 'block font-semibold text-red-700 dark:text-red-400';

function columns(answer: AdminTreasuryResponse): Column<TreasuryCoin>[] {
  const now = answer.generated_at;
  return [
    {
      label: 'Coin',
      phone: 'primary',
      rowHeader: true,
      cell: (c) => (
        <>
          {c.coin}
          <span className={`${muted} font-normal`}>{c.payouts_enabled ? c.name : `${c.name} · payouts disabled`}</span>
        </>
      ),
    },
    { label: 'Owed', align: 'right', testId: 'treasury-owed', cell: (c) => `${c.owed} ${c.coin}` },
    {
      label: 'Due',
      align: 'right',
      testId: 'treasury-due',
      cell: (c) => (
        <>
          {`${c.due} ${c.coin}`}
          <span className={muted}>{plural(c.due_accounts, 'account')}</span>
        </>
      ),
    },
    { label: 'Wallet', align: 'right', testId: 'treasury-wallet', cell: (c) => <WalletCell coin={c} now={now} /> },
    {
      label: 'Shortfall',
      align: 'right',
      testId: 'treasury-shortfall',
      cell: (c) => (
        <>
          {c.shortfall === '0' ? (
            <span>{`0 ${c.coin}`}</span>
          ) : (
            <span className={alert}>{`Short ${c.shortfall} ${c.coin}`}</span>
          )}
          {c.wallet?.fee_reserve && isFeeShort(c) && (
            <span className={alert}>{`Fees short ${c.wallet.fee_reserve.shortfall} ${c.wallet.fee_reserve.coin}`}</span>
          )}
        </>
      ),
    },
    {
      label: 'Waiting',
      align: 'right',
      testId: 'treasury-waiting',
      cell: (c) => (
        <>
          {`${plural(c.waiting.open_payouts, 'payout')} open`}
          {c.waiting.open_payouts > 0 && <span className={muted}>{`${c.waiting.open_total} ${c.coin}`}</span>}
          {c.waiting.accounts_for_funds > 0 && (
            <span className={alert}>{`${plural(c.waiting.accounts_for_funds, 'account')} waiting for funds`}</span>
          )}
        </>
      ),
    },
    {
      label: 'Profit',
      align: 'right',
      testId: 'treasury-profit',
      title: (c) =>
        `mined ${c.profit.mined} − PPS credited ${c.profit.pps_credited}${soloPart(c, ' credited')} + fees kept ${c.profit.fees_kept} ${c.coin}`,
      cell: (c) => (
        <>
          {`${c.profit.net} ${c.coin}`}
          <span
            className={muted}
          >{`mined ${c.profit.mined} − PPS ${c.profit.pps_credited}${soloPart(c, '')} + fees ${c.profit.fees_kept}`}</span>
        </>
      ),
    },
  ];
}

/** The solo blocks credited to their finders (docs/solo.md), said only where there are any. */
function soloPart(c: TreasuryCoin, verb: string): string {
  return c.profit.solo_credited === '0' ? '' : ` − solo${verb} ${c.profit.solo_credited}`;
}

function WalletCell({ coin, now }: { coin: TreasuryCoin; now: string }) {
  const w = coin.wallet;
  if (!w) return <span className={muted}>No hot wallet</span>;
  const fee = w.fee_reserve;
  return (
    <>
      {w.demo ? 'Demo (unlimited)' : w.spendable === null ? 'Never read' : `${w.spendable} ${coin.coin}`}
      <span className={muted}>{`keeps ${w.min_balance} ${coin.coin}`}</span>
      {fee && <span className={muted}>{`fees: ${fee.spendable ?? '?'} ${fee.coin} (needs ${fee.needed ?? '?'})`}</span>}
      {w.read_at && (
        <span className={isStale(w.read_at, now) ? alert : muted}>{`read ${ageText(w.read_at, now)} ago`}</span>
      )}
      {w.error && <span className={alert}>{`last read failed ${ageText(w.checked_at, now)} ago: ${w.error}`}</span>}
    </>
  );
}
