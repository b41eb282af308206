import { describe, expect, it } from 'vitest';
import { addressUrl, CONTRIBUTIONS, contributionStatus, IMPACT, progress, txUrl } from './campaign';

const TX = 'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16';

describe('Sats4Soup contributions', () => {
  it('has the two contributions and amounts', () => {
    expect(CONTRIBUTIONS.map((c) => [c.date, c.amount])).toEqual([
      ['15 September 2025', '0.0461475'],
      ['30 September 2025', '0.0357209'],
    ]);
    expect(IMPACT.map((i) => i.value)).toEqual(['1,500+', '19,300+', '$3500', '200 TH']);
  });

  it('is Sent with a transaction id and Pending without one', () => {
    expect(contributionStatus({ date: 'd', tx: TX, amount: '1' })).toBe('sent');
    expect(contributionStatus({ date: 'd', tx: null, amount: '1' })).toBe('pending');
    expect(contributionStatus({ date: 'd', tx: '  ', amount: null })).toBe('pending');
  });

  it('counts the contributions with a transaction id out of 2', () => {
    const pending = { date: 'd', tx: null, amount: null };
    const sent = { date: 'd', tx: TX, amount: '1' };
    expect(progress([pending, pending])).toEqual({ done: 0, total: 2, text: '0/2 completed', percent: 0 });
    expect(progress([sent, pending])).toEqual({ done: 1, total: 2, text: '1/2 completed', percent: 50 });
    expect(progress([sent, sent])).toEqual({ done: 2, total: 2, text: '2/2 completed', percent: 100 });
  });

  it('links to the public explorer', () => {
    expect(txUrl(TX)).toBe(`https://mempool.space/tx/${TX}`);
    expect(addressUrl('bc1qexample')).toBe('https://mempool.space/address/bc1qexample');
  });
});
