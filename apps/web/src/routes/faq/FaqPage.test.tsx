import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { failQuery, renderPage, textOf } from '../../testing/renderPage';
import FaqPage from './FaqPage';

describe('FAQ page, the fee answer', () => {
  it("says 'Loading fees...' until the fees arrive", () => {
    expect(textOf(renderPage(<FaqPage />))).toContain('Loading fees...');
  });

  it('gives the error text when the fees could not be loaded', () => {
    const page = textOf(renderPage(<FaqPage />, { seed: (c) => failQuery(c, queryKeys.fees, 'Service unavailable') }));
    expect(page).toContain('Error loading fee data. Please try again later.');
    expect(page).not.toContain('Loading fees...');
  });

  it('lists the fee of every payout coin once they arrive', () => {
    const page = textOf(
      renderPage(<FaqPage />, {
        seed: (c) => c.setQueryData(queryKeys.fees, { pools: { BTC: { fee: 0.01 }, LTC: { fee: 0.015 } } }),
      }),
    );
    expect(page).toContain('BTC 1.0% LTC 1.5%');
  });
});
