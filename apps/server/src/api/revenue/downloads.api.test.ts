import { createHash } from 'node:crypto';
import { testEngines } from '@lodestone/db/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from '../../../test/accounts.js';
import { DEMO_TXID, LTC_TXID, payout, type RevenueWorld, seedRevenueWorld } from '../../../test/revenueWorld.js';
import { CSV_BOM } from '../../services/revenue/csv.js';
import { STATEMENT_MESSAGES } from '../../services/revenue/statement.js';
import { pdfTextLines } from '../../services/revenue/testing.js';

const pad = (amount: string, width = 12) => amount.padStart(width);

describe.each(testEngines())('revenue downloads on %s', (engine) => {
  let w: RevenueWorld;
  beforeAll(async () => {
    w = await seedRevenueWorld(engine);
    // A payout address no real coin would have, to prove the CSV keeps any text in one field.
    await payout(w.t.database.db, {
      coin: 'LTC',
      at: '2025-06-15T11:00:00Z',
      status: 'pending',
      accounts: [{ accountId: w.alice.id, items: [{ address: 'odd, "quoted"\naddress', amount: 1_000n }] }],
    });
  });
  afterAll(async () => {
    await w?.t.close();
  });

  const download = (path: string, query: Record<string, string>, cookie: string | null = w.alice.user.cookie) =>
    get(w.t.app, `/v1/user/revenue/${path}`, {
      cookie: cookie ?? undefined,
      query: { account_name: w.alice.name, ...query },
    });

  const pdfOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    return pdfTextLines(pdf);
  };

  describe('GET /v1/user/revenue/earnings/download (monthly PDF statement)', () => {
    it('is signed by the pool: the signature page answers the SHA-256 of the very file downloaded', async () => {
      const res = await download('earnings/download', { date: '2025-06' });
      const lines = pdfOf(res);
      const signature = lines.find((l) => l.startsWith('Signature: '))?.slice('Signature: '.length) ?? '';
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      expect(lines).toContain(`Verify this statement: http://localhost:8080/signature/${signature}`);
      const check = await get(w.t.app, `/v1/signatures/${signature}`);
      expect(check.statusCode).toBe(200);
      expect(check.json()).toMatchObject({
        kind: 'statement',
        result: createHash('sha256').update(res.rawPayload).digest('hex'),
      });
    });

    it('is a PDF attachment named after the month with the days, totals and payouts of the month', async () => {
      const res = await download('earnings/download', { date: '2025-06' });
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe('attachment; filename="earnings_2025-06.pdf"');
      expect(res.headers['cache-control']).toBe('no-store');
      const lines = pdfOf(res);
      expect(lines).toContain('Lodestone');
      expect(lines).toContain(w.alice.name);
      expect(lines).toContain('June 2025 (2025-06)');
      expect(lines).toContain('2025-06-15T12:00:00+00:00');
      // Totals over every algorithm: LTC 20,000 + 500,000 + 1,000,000; BTC 700; DASH (x11) 3,000,000.
      const totals = lines.slice(lines.indexOf('Monthly totals') + 1, lines.indexOf('Daily earnings'));
      expect(totals).toEqual(['BTC     0.00000700', 'LTC     0.01520000', 'DASH    0.03000000']);
      const daily = lines.slice(lines.indexOf('Daily earnings') + 1, lines.indexOf('Payouts'));
      expect(daily).toEqual([
        `Date        Coin    ${pad('Amount')}`,
        `2025-06-13  LTC     ${pad('0.00020000')}`,
        `2025-06-14  BTC     ${pad('0.00000700')}`,
        `2025-06-14  LTC     ${pad('0.00500000')}`,
        `2025-06-14  DASH    ${pad('0.03000000')}`,
        `2025-06-15  LTC     ${pad('0.01000000')}`,
      ]);
      // Payouts of the month, oldest first, with their transactions (the failed one is not there).
      const payouts = lines.slice(lines.indexOf('Payouts') + 1, lines.indexOf('Payouts') + 16);
      expect(payouts).toEqual([
        '2025-06-10T08:00:00+00:00  LTC     0.03000000',
        '    to ltc1qalice1',
        `    transaction ${LTC_TXID}`,
        '2025-06-10T08:00:00+00:00  LTC     0.01000000',
        '    to ltc1qalice2',
        `    transaction ${LTC_TXID}`,
        '2025-06-12T00:00:00+00:00  BTC     0.00000200',
        '    to bc1qalice',
        `    transaction ${DEMO_TXID}`,
        '2025-06-14T23:30:00+00:00  LTC     0.00500000',
        '    to ltc1qalice1',
        '    transaction Pending',
        '2025-06-15T11:00:00+00:00  LTC     0.00001000',
        // The address's line break cannot be drawn: it is shown as '?'.
        '    to odd, "quoted"?address',
        '    transaction Pending',
      ]);
    });

    it('puts the month in the asked time zone: 22:30 UTC on 31 May is June in Madrid', async () => {
      const june = pdfOf(await download('earnings/download', { date: '2025-06', timezone: 'Europe/Madrid' }));
      expect(june).toContain('LTC     0.01521000');
      expect(june).toContain(`2025-06-01  LTC     ${pad('0.00001000')}`);
      const mayUtc = pdfOf(await download('earnings/download', { date: '2025-05' }));
      expect(mayUtc).toContain('LTC     0.00001000');
      const mayMadrid = pdfOf(await download('earnings/download', { date: '2025-05', timezone: 'Europe/Madrid' }));
      expect(mayMadrid).toContain(STATEMENT_MESSAGES.noEarnings);
    });

    it('still answers a valid statement for a month without anything, saying so', async () => {
      const lines = pdfOf(await download('earnings/download', { date: '2025-04' }));
      expect(lines.filter((l) => l === STATEMENT_MESSAGES.noEarnings)).toHaveLength(2);
      expect(lines).toContain(STATEMENT_MESSAGES.noPayouts);
      expect(lines).toContain('April 2025 (2025-04)');
    });

    it('refuses malformed and future months with 400', async () => {
      for (const date of ['2025-13', '2025-6', '2025-06-01', 'June', '']) {
        const res = await download('earnings/download', { date });
        expect(res.statusCode, date).toBe(400);
        expect(res.json().code).toBe('VALIDATION_FAILED');
      }
      expect((await download('earnings/download', {})).statusCode).toBe(400);
      const future = await download('earnings/download', { date: '2025-07' });
      expect(future.statusCode).toBe(400);
      expect(future.json().error).toBe(STATEMENT_MESSAGES.futureMonth);
      // The current month so far is fine.
      expect((await download('earnings/download', { date: '2025-06' })).statusCode).toBe(200);
    });
  });

  describe('GET /v1/user/revenue/earnings/csv', () => {
    it('is earnings.csv: UTF-8 with BOM, header, one row per day and coin, exact amounts, whole history', async () => {
      const res = await download('earnings/csv', { algorithm: 'scrypt' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="earnings.csv"');
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(res.body).toBe(
        `${CSV_BOM}date,coin,amount,transaction_fees,average_hashrate,hashrate_units\r\n` +
          '2025-06-15,LTC,0.01000000,0.00000000,65.536,Kh/s\r\n' +
          '2025-06-14,BTC,0.00000700,0.00000000,65.536,Kh/s\r\n' +
          '2025-06-14,LTC,0.00500000,0.00000000,65.536,Kh/s\r\n' +
          '2025-06-13,LTC,0.00020000,0.00000000,0.000,H/s\r\n' +
          // 2025-06-12 had shares and no credit: no row with an empty coin and amount.
          '2025-05-31,LTC,0.00001000,0.00000000,0.000,H/s\r\n' +
          // Older than the 90 days the table shows: the file keeps the whole history.
          '2025-03-01,LTC,0.09000000,0.00000000,0.000,H/s\r\n',
      );
    });

    it('follows the algorithm and time zone', async () => {
      const x11 = await download('earnings/csv', { algorithm: 'x11' });
      expect(x11.body).toBe(
        `${CSV_BOM}date,coin,amount,transaction_fees,average_hashrate,hashrate_units\r\n2025-06-14,DASH,0.03000000,0.00000000,49.710,Mh/s\r\n`,
      );
      const madrid = await download('earnings/csv', { algorithm: 'scrypt', timezone: 'Europe/Madrid' });
      expect(madrid.body).toContain('\r\n2025-06-15,LTC,0.01500000,0.00000000,56.174,Kh/s\r\n');
    });
  });

  describe('GET /v1/user/revenue/payouts/csv', () => {
    it('is payments.csv: every payout row, ISO dates, exact amounts, any address safely quoted', async () => {
      const res = await download('payouts/csv', {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="payments.csv"');
      const url = `https://litecoinspace.org/tx/${LTC_TXID}`;
      expect(res.body).toBe(
        `${CSV_BOM}date,coin,amount,address,txid,explorer_url\r\n` +
          '2025-06-15T11:00:00+00:00,LTC,0.00001000,"odd, ""quoted""\naddress",Pending,\r\n' +
          '2025-06-14T23:30:00+00:00,LTC,0.00500000,ltc1qalice1,Pending,\r\n' +
          `2025-06-12T00:00:00+00:00,BTC,0.00000200,bc1qalice,${DEMO_TXID},\r\n` +
          `2025-06-10T08:00:00+00:00,LTC,0.03000000,ltc1qalice1,${LTC_TXID},${url}\r\n` +
          `2025-06-10T08:00:00+00:00,LTC,0.01000000,ltc1qalice2,${LTC_TXID},${url}\r\n`,
      );
      const madrid = await download('payouts/csv', { timezone: 'Europe/Madrid' });
      expect(madrid.body).toContain('\r\n2025-06-15T01:30:00+02:00,LTC,0.00500000,ltc1qalice1,Pending,\r\n');
    });
  });

  describe('who may download', () => {
    const each = [
      ['earnings/download', { date: '2025-06' }],
      ['earnings/csv', { algorithm: 'scrypt' }],
      ['payouts/csv', {}],
    ] as const;

    it.each(each)('%s: 401 without a session, 404 for another user’s account', async (path, query) => {
      expect((await download(path, query, null)).statusCode).toBe(401);
      const other = await get(w.t.app, `/v1/user/revenue/${path}`, {
        cookie: w.bob.user.cookie,
        query: { account_name: w.alice.name, ...query },
      });
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
    });
  });
});
