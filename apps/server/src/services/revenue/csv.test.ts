import { describe, expect, it } from 'vitest';
import { CSV_BOM, coinAmount, csvField, earningsCsv, paymentsCsv, textCell, toCsv } from './csv.js';

/** A small RFC 4180 reader, to prove that what we write reads back field for field. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('CSV (RFC 4180)', () => {
  it('quotes only fields that need it, doubling inner quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('')).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('Zürich ✓')).toBe('Zürich ✓');
  });

  it('writes a BOM, a header and CRLF-ended lines that read back exactly', () => {
    const rows = [
      ['weird,"addr"\nx', '1'],
      ['', 'end'],
    ];
    const text = toCsv(['a', 'b'], rows);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text).toBe(`${CSV_BOM}a,b\r\n"weird,""addr""\nx",1\r\n,end\r\n`);
    expect(parseCsv(text.slice(1))).toEqual([['a', 'b'], ...rows]);
  });

  it('keeps spreadsheets from running free text as a formula', () => {
    expect(textCell('=HYPERLINK("http://evil")')).toBe(`'=HYPERLINK("http://evil")`);
    expect(textCell('+1')).toBe(`'+1`);
    expect(textCell('-1')).toBe(`'-1`);
    expect(textCell('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(textCell('bc1qxyz')).toBe('bc1qxyz');
  });

  it('writes amounts exactly with every decimal of the coin', () => {
    expect(coinAmount(1_234_500n, 8)).toBe('0.01234500');
    expect(coinAmount(1_000_000_000_000_000_001n, 18)).toBe('1.000000000000000001');
    expect(coinAmount(123_456_789_012_345_678_901_234_567_890n, 8)).toBe('1234567890123456789012.34567890');
    expect(coinAmount(0n, 6)).toBe('0.000000');
  });

  it('payments.csv: one row per payout and address, addresses with commas and quotes stay one field', () => {
    const text = paymentsCsv([
      {
        payout_date: '2025-06-15T01:30:00+02:00',
        payout_address: 'addr, with "quotes"',
        coin_balance: '500000',
        coin_decimals: 8,
        coin_ticker: 'LTC',
        payout_txid: 'Pending',
        payout_txid_url: null,
      },
      {
        payout_date: '2025-06-10T10:00:00+02:00',
        payout_address: '=cmd()',
        coin_balance: '1000000000000000001',
        coin_decimals: 18,
        coin_ticker: 'ETH',
        payout_txid: `0x${'cd'.repeat(32)}`,
        payout_txid_url: `https://etherscan.io/tx/0x${'cd'.repeat(32)}`,
      },
    ]);
    expect(parseCsv(text.slice(1))).toEqual([
      ['date', 'coin', 'amount', 'address', 'txid', 'explorer_url'],
      ['2025-06-15T01:30:00+02:00', 'LTC', '0.00500000', 'addr, with "quotes"', 'Pending', ''],
      [
        '2025-06-10T10:00:00+02:00',
        'ETH',
        '1.000000000000000001',
        `'=cmd()`,
        `0x${'cd'.repeat(32)}`,
        `https://etherscan.io/tx/0x${'cd'.repeat(32)}`,
      ],
    ]);
  });

  it('earnings.csv: one row per day and coin with the day hashrate; a day with only shares keeps its row', () => {
    const text = earningsCsv([
      {
        day: '2025-06-14',
        hashrate: '65536',
        coins: [
          { ticker: 'BTC', decimals: 8, units: 700n },
          { ticker: 'LTC', decimals: 8, units: 500_000n, feeUnits: 1_234n },
        ],
      },
      { day: '2025-06-12', hashrate: '655.36', coins: [] },
    ]);
    expect(parseCsv(text.slice(1))).toEqual([
      ['date', 'coin', 'amount', 'transaction_fees', 'average_hashrate', 'hashrate_units'],
      ['2025-06-14', 'BTC', '0.00000700', '0.00000000', '65.536', 'Kh/s'],
      ['2025-06-14', 'LTC', '0.00500000', '0.00001234', '65.536', 'Kh/s'],
      // 2025-06-12 had shares but no credit: no row with an empty coin and amount.
    ]);
  });
});
