import type { AccountPayoutRecord } from '@lodestone/contract';
import { abbreviateTxid } from '@lodestone/domain';
import { type DashboardSource, downloadPayoutsCsv } from '../../../api/dashboard';
import { CopyButton } from '../../../components/CopyButton';
import type { Column } from '../../../components/DataTable';
import { linkClass } from '../../../components/form';
import { ExternalLinkIcon } from '../../../components/icons';
import { MiddleEllipsis } from '../../../components/MiddleEllipsis';
import { formatApiDate, formatCoinAmount } from '../../../lib/format';
import { usePayouts } from '../queries';
import { PagedHistory } from './PagedHistory';

/** Past payments, paged, with the CSV download (the miner only). */
export function Payments({
  source,
  timezone,
  account,
}: {
  source: DashboardSource;
  timezone: string;
  account: string | undefined;
}) {
  return (
    <PagedHistory
      name="payments"
      title="Past payments"
      query={usePayouts(source, timezone)}
      csv={account ? { fileName: 'payments.csv', fetchFile: () => downloadPayoutsCsv(account, timezone) } : undefined}
      columns={PAYMENT_COLUMNS}
      // A payout to two addresses gives two rows with one txid: the address tells them apart.
      rowKey={(row) => `${row.payout_date}-${row.coin_ticker}-${row.payout_txid}-${row.payout_address}`}
      rowTestId="payment-row"
      empty="No payments yet."
    />
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

/**
 * A txid 'Pending' reads 'Pending...' in italics; otherwise the abbreviated txid links to the explorer
 * (docs/website.md, Figures).
 */
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
