import { describe, expect, it } from 'vitest';
import {
  monthTitle,
  pdfText,
  renderStatementPdf,
  STATEMENT_MESSAGES,
  type StatementData,
  statementContent,
} from './statement.js';
import { pdfTextLines } from './testing.js';

const generatedAt = new Date('2025-07-01T10:00:00Z');

const june: StatementData = {
  poolName: 'Lodestone Pool',
  accountName: 'alice',
  month: '2025-06',
  timeZone: 'Europe/Madrid',
  generatedAt,
  days: [
    { day: '2025-06-13', coins: [{ ticker: 'LTC', decimals: 8, units: 20_000n }] },
    {
      day: '2025-06-14',
      coins: [
        { ticker: 'BTC', decimals: 8, units: 700n },
        { ticker: 'ETH', decimals: 18, units: 1_000_000_000_000_000_001n },
      ],
    },
  ],
  totals: [
    { ticker: 'BTC', decimals: 8, units: 700n },
    { ticker: 'LTC', decimals: 8, units: 20_000n },
    { ticker: 'ETH', decimals: 18, units: 1_000_000_000_000_000_001n },
  ],
  payouts: [
    {
      payout_date: '2025-06-10T10:00:00+02:00',
      payout_address: 'ltc1qalice1',
      coin_balance: '3000000',
      coin_decimals: 8,
      coin_ticker: 'LTC',
      payout_txid: 'ab'.repeat(32),
      payout_txid_url: null,
    },
  ],
};

describe('monthly statement', () => {
  it('says who, which month, when, and every amount exactly with all of its coin decimals', () => {
    const content = statementContent(june);
    expect(content.title).toBe('Lodestone Pool');
    expect(content.details).toEqual([
      ['Account', 'alice'],
      ['Month', 'June 2025 (2025-06)'],
      ['Time zone', 'Europe/Madrid'],
      ['Generated', '2025-07-01T12:00:00+02:00'],
    ]);
    const [totals, daily, payouts] = content.sections;
    expect(totals).toEqual({
      heading: 'Monthly totals',
      lines: ['BTC     0.00000700', 'LTC     0.00020000', 'ETH     1.000000000000000001'],
    });
    expect(daily?.lines).toEqual([
      `Date        Coin    ${' '.repeat(14)}Amount`,
      `2025-06-13  LTC     ${' '.repeat(10)}0.00020000`,
      `2025-06-14  BTC     ${' '.repeat(10)}0.00000700`,
      '2025-06-14  ETH     1.000000000000000001',
    ]);
    expect(payouts?.lines).toEqual([
      `2025-06-10T10:00:00+02:00  LTC     0.03000000`,
      '    to ltc1qalice1',
      `    transaction ${'ab'.repeat(32)}`,
    ]);
  });

  it('puts the transaction-fee part beside each amount where the ledger knows it (FPPS)', () => {
    const ltc = { ticker: 'LTC', decimals: 8 };
    const content = statementContent({
      ...june,
      days: [
        { day: '2025-06-13', coins: [{ ...ltc, units: 20_000n, feeUnits: 61n }] },
        { day: '2025-06-14', coins: [{ ...ltc, units: 10_000n }] },
      ],
      totals: [{ ...ltc, units: 30_000n, feeUnits: 61n }],
    });
    const [totals, daily] = content.sections;
    expect(totals?.lines).toEqual(['LTC     0.00030000, of which transaction fees 0.00000061']);
    expect(daily?.lines).toEqual([
      `Date        Coin    ${' '.repeat(6)}Amount${' '.repeat(7)}Tx fees`,
      '2025-06-13  LTC       0.00020000    0.00000061',
      '2025-06-14  LTC       0.00010000    0.00000000',
    ]);
    expect(content.note).toContain('Tx fees: the part of an amount that was transaction fees');
    expect(statementContent(june).note).not.toContain('Tx fees');
  });

  it('states plainly when a month has no earnings and no payouts', () => {
    const content = statementContent({ ...june, days: [], totals: [], payouts: [] });
    expect(content.sections.map((s) => s.lines)).toEqual([
      [STATEMENT_MESSAGES.noEarnings],
      [STATEMENT_MESSAGES.noEarnings],
      [STATEMENT_MESSAGES.noPayouts],
    ]);
  });

  it('renders a PDF that shows that text, compressed or not', async () => {
    for (const compress of [false, true]) {
      const pdf = await renderStatementPdf(statementContent(june), generatedAt, { compress });
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
      const lines = pdfTextLines(pdf);
      expect(lines).toContain('Lodestone Pool');
      expect(lines).toContain('Monthly earnings statement');
      expect(lines).toContain('June 2025 (2025-06)');
      expect(lines).toContain('ETH     1.000000000000000001');
      expect(lines).toContain(`2025-06-14  BTC     ${' '.repeat(10)}0.00000700`);
      expect(lines).toContain(`    transaction ${'ab'.repeat(32)}`);
    }
  });

  it('flows a long month onto more pages', async () => {
    const days = Array.from({ length: 30 }, (_, i) => ({
      day: `2025-06-${String(i + 1).padStart(2, '0')}`,
      coins: ['BTC', 'LTC', 'DOGE', 'DASH'].map((ticker) => ({ ticker, decimals: 8, units: BigInt(i + 1) })),
    }));
    const pdf = await renderStatementPdf(statementContent({ ...june, days }), generatedAt, { compress: false });
    expect(Number(/\/Type \/Pages\s+\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1])).toBeGreaterThan(1);
    // Amounts are right-aligned in a column as wide as the longest (at least 12 characters).
    expect(pdfTextLines(pdf)).toContain('2025-06-30  DASH      0.00000030');
  });

  it('keeps text the standard fonts can show and replaces the rest', () => {
    expect(pdfText('Zürich Pool – €')).toBe('Zürich Pool – €');
    expect(pdfText('矿池 ✓\n')).toBe('?? ??');
    expect(monthTitle('2025-01')).toBe('January 2025');
  });
});
