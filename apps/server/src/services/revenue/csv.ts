import type { AccountPayoutRecord } from '@lodestone/contract';
import { Exact, scaleHashrate } from '@lodestone/domain';
import type { EarningDay } from './earnings.js';

/**
 * The CSV downloads (earnings.csv, payments.csv): RFC 4180 — comma separated, CRLF line ends, a
 * header row, fields holding a comma, a double quote or a line break quoted with inner quotes
 * doubled — in UTF-8 with a byte-order mark, because the people who download these mostly open them
 * in a spreadsheet, and Excel reads BOM-less UTF-8 as the local code page (parsers that follow the
 * standard skip the BOM). Amounts are exact coin amounts written with the coin's decimals, never
 * floats; dates are ISO 8601.
 */

export const CSV_BOM = '\uFEFF';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** One field, quoted when it must be (RFC 4180 section 2, rules 5–7). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A text cell that a spreadsheet must not run as a formula ("CSV injection"): text starting with
 * = + - @ or a tab / carriage return gets a leading apostrophe, which spreadsheets show as text.
 * Only for free text (addresses, transaction ids); numbers we write are never negative, so they are
 * left exactly as they are.
 */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The whole file: BOM, header, rows, each line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header, ...rows].map((r) => r.map(csvField).join(','));
  return `${CSV_BOM}${lines.map((l) => `${l}\r\n`).join('')}`;
}

/** A coin amount with all of the coin's decimals: 1234500n, 8 → "0.01234500". */
export function coinAmount(units: bigint, decimals: number): string {
  return Exact.fromUnits(units, decimals).toFixed(decimals);
}

export const EARNINGS_CSV_HEADER = [
  'date',
  'coin',
  'amount',
  'transaction_fees',
  'average_hashrate',
  'hashrate_units',
] as const;

/**
 * earnings.csv: one row per day and coin (a day that earned in two coins has two rows, each with the
 * day's average hashrate), newest day first. A day with shares but no credit has no row: every row is
 * an amount in a coin, so a spreadsheet can sum the column per coin (the table on the page still
 * lists that day, with "—"). `transaction_fees` is the part of the amount known to be transaction fees
 * (docs/money.md, "FPPS": the network's average under FPPS, the template's fees under PPS where its node
 * gave them; 0 where neither is known), rounded down; the rest is the block subsidy.
 */
export function earningsCsv(days: readonly EarningDay[]): string {
  const rows = days.flatMap((d) => {
    const speed = scaleHashrate(d.hashrate);
    const rate = [speed.value.toFixed(3), speed.units];
    return d.coins.map((c) => [
      d.day,
      c.ticker,
      coinAmount(c.units, c.decimals),
      coinAmount(c.feeUnits ?? 0n, c.decimals),
      ...rate,
    ]);
  });
  return toCsv(EARNINGS_CSV_HEADER, rows);
}

export const PAYMENTS_CSV_HEADER = ['date', 'coin', 'amount', 'address', 'txid', 'explorer_url'] as const;

/** payments.csv: one row per payout and address, newest first, as the past-payments table lists them. */
export function paymentsCsv(records: readonly AccountPayoutRecord[]): string {
  const rows = records.map((r) => [
    r.payout_date,
    r.coin_ticker,
    coinAmount(BigInt(r.coin_balance), r.coin_decimals),
    textCell(r.payout_address),
    textCell(r.payout_txid),
    r.payout_txid_url ?? '',
  ]);
  return toCsv(PAYMENTS_CSV_HEADER, rows);
}
