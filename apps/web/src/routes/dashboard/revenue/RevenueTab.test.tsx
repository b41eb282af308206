import type { AccountPayoutRecord, BalanceRecord } from '@lodestone/contract';
import type { QueryClient } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DashboardSource } from '../../../api/dashboard';
import { ApiError } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { countTestIds, failQuery, renderPage, textOf } from '../../../testing/renderPage';
import ObserverDashboardPage from '../ObserverDashboardPage';
import { RevenueTab } from './RevenueTab';

/**
 * The observer dashboard with a watcher link that does not show everything (docs/dashboard.md, Watcher links): the
 * server refuses the reads beyond its scope with 403 and says why; the tab says that instead of failing blocks.
 */
const source: DashboardSource = { kind: 'observer', observerKey: 'watch-key' };
// Unit tests run in UTC (vitest.config.ts), the zone the tab reads from the browser.
const TZ = 'UTC';
const MINING_ONLY = 'This link shows mining only, not revenue.';
const NO_PAYOUTS = 'This link does not show payouts.';
const refused = (message: string) => new ApiError(403, 'FORBIDDEN', message, true);

const BALANCE: BalanceRecord = {
  coin_ticker: 'LTC',
  coin_price: 80,
  coin_balance: '150000000',
  coin_decimals: 8,
  usd_decimals: 2,
  show_warning: false,
};
const PAYOUT: AccountPayoutRecord = {
  payout_date: '2026-11-20T10:00:00+00:00',
  payout_address: 'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA',
  coin_balance: '20000000',
  coin_decimals: 8,
  coin_ticker: 'LTC',
  payout_txid: 'a1b2',
  payout_txid_url: null,
};

const tab = (seed: (client: QueryClient) => void) =>
  renderPage(<RevenueTab source={source} algorithm="scrypt" chartRange={{ period: '30d', onPeriod: () => {} }} />, {
    seed,
  });

describe('the observer’s Revenue tab with a scoped watcher link', () => {
  it('says the link shows mining only, in the server’s words, instead of the revenue blocks', () => {
    const html = tab((client) => failQuery(client, queryKeys.balances(source), refused(MINING_ONLY)));
    expect(textOf(html)).toBe(MINING_ONLY);
    expect(countTestIds(html, 'revenue-not-shared')).toBe(1);
    for (const block of ['revenue-chart-section', 'balances', 'payments-and-earnings']) {
      expect(countTestIds(html, block), block).toBe(0);
    }
  });

  it('shows revenue with the balances, and says payouts are not shared where they would be', () => {
    const html = tab((client) => {
      client.setQueryData(queryKeys.balances(source), [BALANCE]);
      failQuery(client, queryKeys.payouts(source, TZ), refused(NO_PAYOUTS));
    });
    expect(countTestIds(html, 'revenue-not-shared')).toBe(0);
    expect(countTestIds(html, 'balance-LTC')).toBe(1);
    const payments = html.match(/<div data-testid="payments">.*?<div data-testid="earnings">/)?.[0] ?? '';
    expect(textOf(payments)).toContain(`Past payments ${NO_PAYOUTS}`);
    expect(countTestIds(html, 'payments-not-shared')).toBe(1);
    expect(countTestIds(html, 'payments-table')).toBe(0);
    expect(textOf(html)).not.toContain('could not be loaded');
  });

  it('shows the payments of a link that shows everything', () => {
    const html = tab((client) => {
      client.setQueryData(queryKeys.balances(source), [BALANCE]);
      client.setQueryData(queryKeys.payouts(source, TZ), [PAYOUT]);
    });
    expect(countTestIds(html, 'payment-row')).toBe(1);
    expect(countTestIds(html, 'payments-not-shared')).toBe(0);
  });

  it('shows under a day’s amount the part of it that was transaction fees, where the ledger knows it', () => {
    const html = tab((client) => {
      client.setQueryData(queryKeys.balances(source), [BALANCE]);
      client.setQueryData(queryKeys.payouts(source, TZ), [PAYOUT]);
      client.setQueryData(queryKeys.earnings(source, 'scrypt', TZ), [
        {
          earning_timestamp: '2026-11-30',
          speed: 1,
          speed_units: 'Mh/s',
          coins: [
            { coin_balance: '9900029', coin_decimals: 8, coin_ticker: 'LTC', coin_fees: '29' },
            { coin_balance: '700', coin_decimals: 8, coin_ticker: 'BTC' },
          ],
        },
      ]);
    });
    expect(countTestIds(html, 'earning-amount')).toBe(2);
    expect(countTestIds(html, 'earning-fees')).toBe(1);
    expect(textOf(html)).toContain('0.09900029 LTC of which fees 0.00000029 LTC');
  });

  it('keeps other failures a failure of the block, not a refusal', () => {
    const html = tab((client) =>
      failQuery(client, queryKeys.balances(source), new ApiError(500, 'INTERNAL', 'Something went wrong', true)),
    );
    expect(countTestIds(html, 'revenue-not-shared')).toBe(0);
    expect(textOf(html)).toContain('The balances could not be loaded: Something went wrong.');
  });
});

describe('the observer dashboard with a link that no longer works', () => {
  it('says so for a revoked or expired link, as for an unknown key (the server answers 404 alike)', () => {
    const html = renderPage(
      <Routes>
        <Route path="/dashboard/:observerKey" element={<ObserverDashboardPage />} />
      </Routes>,
      {
        path: '/dashboard/watch-key',
        seed: (client) =>
          failQuery(
            client,
            queryKeys.mining(source, 'scrypt'),
            new ApiError(404, 'NOT_FOUND', 'Account not found', true),
          ),
      },
    );
    expect(countTestIds(html, 'observer-invalid')).toBe(1);
    expect(textOf(html)).toContain(
      'the account owner may have revoked it or replaced it with a new one, it may have expired',
    );
    expect(countTestIds(html, 'panel-mining')).toBe(0);
  });
});
