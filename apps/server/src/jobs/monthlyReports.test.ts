import { describe, expect, it } from 'vitest';
import { monthlyReportMessage } from './monthlyReports.js';

const OPTIONS = { poolName: 'Lodestone', publicUrl: 'https://pool.example.org' };
const SIG = 'ab'.repeat(32);

describe('monthly report e-mail', () => {
  it('names the month, each account with its file and verification link, UTC and the dashboard', () => {
    const { subject, body } = monthlyReportMessage(OPTIONS, '2026-11', [
      { account: 'alice', filename: 'lodestone-alice-2026-11.pdf', signature: SIG },
      { account: 'alice2', filename: 'lodestone-alice2-2026-11.pdf', signature: 'cd'.repeat(32) },
    ]);
    expect(subject).toBe('[Lodestone] Your statement for November 2026');
    expect(body.split('\n')).toEqual([
      'Attached is your Lodestone statement for November 2026: one PDF for each of your 2 mining accounts, with what each account earned per day and coin and the payouts of the month.',
      '',
      '  alice: lodestone-alice-2026-11.pdf',
      `    verify: https://pool.example.org/signature/${SIG}`,
      '  alice2: lodestone-alice2-2026-11.pdf',
      `    verify: https://pool.example.org/signature/${'cd'.repeat(32)}`,
      '',
      'Each statement is signed by the pool: its signature is printed at its foot, and the page its link opens (https://pool.example.org/signature/…) tells whether a copy is exactly the file the pool issued.',
      '',
      'Days and times are in UTC; download a statement in your own time zone from the dashboard: https://pool.example.org/dashboard',
    ]);
  });

  it('speaks of one PDF for one account', () => {
    const { body } = monthlyReportMessage(OPTIONS, '2027-01', [
      { account: 'bob', filename: 'lodestone-bob-2027-01.pdf', signature: SIG },
    ]);
    expect(body).toMatch(
      /^Attached is your Lodestone statement for January 2027: one PDF, with what the account earned/,
    );
  });
});
