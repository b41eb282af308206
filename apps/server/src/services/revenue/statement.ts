import type { AccountPayoutRecord } from '@lodestone/contract';
import { type Account, dailyEarnings, type Executor, listCoins } from '@lodestone/db';
import { isoInZone, localDay, nextMonthStart, startOfLocalDay } from '@lodestone/domain';
import PDFDocument from 'pdfkit';
import { errors } from '../errors.js';
import { signDocument, verificationUrl } from '../public/signatures.js';
import { coinAmount } from './csv.js';
import { coinsByDay, type DayCoin } from './earnings.js';
import { readAccountPayouts } from './payouts.js';

/**
 * The monthly earnings statement (GET revenue/earnings/download): a PDF a miner can keep for their
 * records or their accountant. It covers one calendar month in the miner's time zone and the whole
 * account (every algorithm): what was earned per day and coin, the month's totals per coin, and the
 * payouts made that month with their transactions. A month without earnings still gets a statement
 * that says so — "nothing earned" is an answer too, and a download that fails would read as an error.
 */

export interface StatementData {
  poolName: string;
  accountName: string;
  /** 'YYYY-MM'. */
  month: string;
  timeZone: string;
  generatedAt: Date;
  /** Days with earnings, oldest first, each with its coins in catalogue order. */
  days: { day: string; coins: DayCoin[] }[];
  /** Per coin, catalogue order. */
  totals: DayCoin[];
  /** Oldest first. */
  payouts: AccountPayoutRecord[];
}

export const STATEMENT_MESSAGES = {
  futureMonth: 'That month has not started yet',
  noEarnings: 'No earnings in this month.',
  noPayouts: 'No payouts in this month.',
} as const;

/** What a statement says, line by line; the PDF only lays it out. */
export interface StatementContent {
  title: string;
  subtitle: string;
  details: [label: string, value: string][];
  sections: { heading: string; lines: string[] }[];
  note: string;
}

const col = (text: string, width: number) => text.padEnd(width);

/** 'June 2025' for '2025-06' (the month's name never depends on the zone). */
export function monthTitle(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(0);
  d.setUTCFullYear(y, m - 1, 15);
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);
}

/** Pure: the statement's text. Amounts carry every decimal of their coin, so columns line up. */
export function statementContent(data: StatementData): StatementContent {
  // Where the ledger knows what part of an amount was transaction fees (docs/money.md, "FPPS"), the
  // statement says so beside it; a statement without such credits keeps its plain layout.
  const withFees = data.days.some((d) => d.coins.some((c) => c.feeUnits !== undefined));
  const amountWidth = Math.max(
    12,
    ...data.days.flatMap((d) => d.coins.map((c) => coinAmount(c.units, c.decimals).length)),
  );
  const fees = (c: DayCoin) => (withFees ? coinAmount(c.feeUnits ?? 0n, c.decimals).padStart(amountWidth + 2) : '');
  const totals =
    data.totals.length === 0
      ? [STATEMENT_MESSAGES.noEarnings]
      : data.totals.map(
          (c) =>
            `${col(c.ticker, 8)}${coinAmount(c.units, c.decimals)}` +
            (withFees ? `, of which transaction fees ${coinAmount(c.feeUnits ?? 0n, c.decimals)}` : ''),
        );
  const daily =
    data.days.length === 0
      ? [STATEMENT_MESSAGES.noEarnings]
      : [
          `${col('Date', 12)}${col('Coin', 8)}${'Amount'.padStart(amountWidth)}` +
            (withFees ? 'Tx fees'.padStart(amountWidth + 2) : ''),
          ...data.days.flatMap((d) =>
            d.coins.map(
              (c) =>
                `${col(d.day, 12)}${col(c.ticker, 8)}${coinAmount(c.units, c.decimals).padStart(amountWidth)}${fees(c)}`,
            ),
          ),
        ];
  const payouts =
    data.payouts.length === 0
      ? [STATEMENT_MESSAGES.noPayouts]
      : data.payouts.flatMap((p) => [
          `${col(p.payout_date, 27)}${col(p.coin_ticker, 8)}${coinAmount(BigInt(p.coin_balance), p.coin_decimals)}`,
          `    to ${p.payout_address}`,
          `    transaction ${p.payout_txid}`,
        ]);
  return {
    title: data.poolName,
    subtitle: 'Monthly earnings statement',
    details: [
      ['Account', data.accountName],
      ['Month', `${monthTitle(data.month)} (${data.month})`],
      ['Time zone', data.timeZone],
      ['Generated', isoInZone(data.generatedAt, data.timeZone)],
    ],
    sections: [
      { heading: 'Monthly totals', lines: totals },
      { heading: 'Daily earnings', lines: daily },
      { heading: 'Payouts', lines: payouts },
    ],
    note:
      'Earnings are the PPS credits of all algorithms, referral rewards and redirects received, as recorded ' +
      'in the pool ledger. Amounts are in coin units; days and times are in the time zone above. ' +
      'A payout marked Pending had left the balance but was not yet sent when this statement was made.' +
      (withFees
        ? ' Tx fees: the part of an amount that was transaction fees (FPPS: the network average over 24 hours; ' +
          "PPS: the block template's), the rest being the block subsidy."
        : ''),
  };
}

/** The characters the PDF's standard fonts can show (Windows-1252); anything else becomes '?'. */
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function pdfText(text: string): string {
  return [...text]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(ch) ? ch : '?';
    })
    .join('');
}

export interface PdfOptions {
  /** Deflate the page streams (default true); tests turn it off to read the text. */
  compress?: boolean;
}

/** The pool's signature printed at the foot of a statement, with the page that verifies it. */
export interface PrintedSignature {
  signature: string;
  url: string;
}

/** What a statement says, as one text: what its signature signs (docs/public-api.md). */
export function statementText(content: StatementContent, generatedAt: Date): string {
  return [
    content.title,
    content.subtitle,
    ...content.details.map(([label, value]) => `${label}: ${value}`),
    ...content.sections.flatMap((s) => [s.heading, ...s.lines]),
    content.note,
    `Generated: ${generatedAt.toISOString()}`,
  ].join('\n');
}

/** Lays the statement out on A4 pages (pdfkit flows long lists onto new pages by itself). */
export function renderStatementPdf(
  content: StatementContent,
  generatedAt: Date,
  options: PdfOptions = {},
  signed?: PrintedSignature,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: pdfText(`${content.title} - ${content.subtitle}`),
      Author: pdfText(content.title),
      CreationDate: generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text(pdfText(content.title));
  doc.font('Helvetica').fontSize(13).text(content.subtitle);
  doc.moveDown(0.8);
  doc.fontSize(10);
  for (const [label, value] of content.details) {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true });
    doc.font('Helvetica').text(pdfText(value));
  }
  for (const section of content.sections) {
    doc.moveDown(1);
    doc.font('Helvetica-Bold').fontSize(12).text(section.heading);
    doc.moveDown(0.3);
    doc.font('Courier').fontSize(9);
    for (const line of section.lines) doc.text(pdfText(line));
  }
  doc.moveDown(1.5);
  doc.font('Helvetica-Oblique').fontSize(8).text(content.note);
  if (signed) {
    doc.moveDown(1);
    doc.font('Helvetica').fontSize(8).text(`Signature: ${signed.signature}`);
    doc.text(`Verify this statement: ${signed.url}`);
  }
  doc.end();
  return done;
}

/**
 * The statement's data: the month's days in the zone, earnings of every algorithm, the payouts
 * written in the month. A month that has not begun (in the zone) is refused: it can hold nothing,
 * and an empty statement for it would look like a record that nothing was earned.
 */
export async function readStatementData(
  db: Executor,
  account: Account,
  options: { month: string; timeZone: string; now: Date; poolName: string },
): Promise<StatementData> {
  const { month, timeZone, now } = options;
  if (month > localDay(now, timeZone).slice(0, 7)) throw errors.invalid(STATEMENT_MESSAGES.futureMonth);
  const from = startOfLocalDay(`${month}-01`, timeZone);
  const to = startOfLocalDay(nextMonthStart(month), timeZone);
  const [catalogue, earnings, payouts] = await Promise.all([
    listCoins(db),
    dailyEarnings(db, account.id, { from, to, timeZone }),
    readAccountPayouts(db, account, timeZone, { from, to, oldestFirst: true }),
  ]);
  const byDay = coinsByDay(earnings, catalogue);
  const days = [...byDay.keys()].sort().map((day) => ({ day, coins: byDay.get(day) ?? [] }));
  const sums = new Map<string, DayCoin>();
  for (const d of days) {
    for (const c of d.coins) {
      const seen = sums.get(c.ticker);
      if (!seen) sums.set(c.ticker, { ...c });
      else {
        const feeUnits =
          seen.feeUnits === undefined && c.feeUnits === undefined
            ? undefined
            : (seen.feeUnits ?? 0n) + (c.feeUnits ?? 0n);
        sums.set(c.ticker, { ...seen, units: seen.units + c.units, ...(feeUnits !== undefined && { feeUnits }) });
      }
    }
  }
  const totals = catalogue.flatMap((c) => {
    const sum = sums.get(c.ticker);
    return sum ? [sum] : [];
  });
  return {
    poolName: options.poolName,
    accountName: account.username,
    month,
    timeZone,
    generatedAt: now,
    days,
    totals,
    payouts,
  };
}

/**
 * GET revenue/earnings/download: the PDF. With `publicUrl`, the pool signs it (buildSignedStatement).
 */
export async function buildStatement(
  db: Executor,
  account: Account,
  options: { month: string; timeZone: string; now: Date; poolName: string; publicUrl?: string },
  pdf: PdfOptions = {},
): Promise<Buffer> {
  const { publicUrl } = options;
  if (publicUrl !== undefined)
    return (await buildSignedStatement(db, account, { ...options, publicUrl }, pdf)).document;
  const data = await readStatementData(db, account, options);
  return renderStatementPdf(statementContent(data), data.generatedAt, pdf);
}

/**
 * The statement signed by the pool (kind 'statement'): the signature and the link to the Signature
 * verification page are printed at its foot, and the SHA-256 of the file is what that page compares a
 * visitor's copy with. The signature is recorded through `db`: in a transaction, it is rolled back
 * with it (the monthly reports sign in the transaction that stores the file).
 */
export async function buildSignedStatement(
  db: Executor,
  account: Account,
  options: { month: string; timeZone: string; now: Date; poolName: string; publicUrl: string },
  pdf: PdfOptions = {},
): Promise<{ document: Buffer; signature: string }> {
  const data = await readStatementData(db, account, options);
  const content = statementContent(data);
  const { publicUrl } = options;
  const { document, signature } = await signDocument(
    db,
    'statement',
    statementText(content, data.generatedAt),
    (signature) =>
      renderStatementPdf(content, data.generatedAt, pdf, { signature, url: verificationUrl(publicUrl, signature) }),
    options.now,
  );
  return { document: Buffer.from(document), signature };
}
