import type { AdminTreasuryResponse, TreasuryCoin, UserInfo } from '@lodestone/contract';
import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { ageText } from '../../lib/format';
import { countTestIds, failQuery, renderPage, textOf } from '../../testing/renderPage';
import TreasuryPage from './TreasuryPage';
import { isShort, isStale, shortCoins } from './treasury';

const ADMIN: UserInfo = {
  result: true,
  email: 'ops@example.org',
  accounts: [],
  two_factor_enabled: true,
  is_admin: true,
  impersonated: false,
};

const coin = (over: Partial<TreasuryCoin>): TreasuryCoin => ({
  coin: 'BTC',
  name: 'Bitcoin',
  decimals: 8,
  payouts_enabled: true,
  owed: '0',
  due: '0',
  due_accounts: 0,
  wallet: null,
  shortfall: '0',
  waiting: { open_payouts: 0, open_total: '0', accounts_for_funds: 0 },
  profit: { mined: '0', pps_credited: '0', solo_credited: '0', fees_kept: '0', net: '0' },
  ...over,
});

/** The seeded pool of the server's tests (apps/server/src/services/admin/treasuryFixture.ts), as the API answers it. */
const ANSWER: AdminTreasuryResponse = {
  generated_at: '2026-05-06T12:00:00.000Z',
  coins: [
    coin({}),
    coin({
      coin: 'LTC',
      name: 'Litecoin',
      owed: '2.3',
      due: '2.3',
      due_accounts: 2,
      wallet: {
        demo: false,
        address: null,
        spendable: '2.2',
        min_balance: '0.1',
        read_at: '2026-05-06T11:58:30.000Z',
        checked_at: '2026-05-06T11:58:30.000Z',
        error: null,
        fee_reserve: null,
      },
      shortfall: '0.2',
      waiting: { open_payouts: 1, open_total: '0.25', accounts_for_funds: 1 },
      profit: { mined: '6.25', pps_credited: '2.6', solo_credited: '0', fees_kept: '0.05', net: '3.7' },
    }),
    coin({
      coin: 'ETH',
      name: 'Ethereum',
      decimals: 18,
      wallet: {
        demo: false,
        address: '0x00000000000000000000000000000000000f00d5',
        spendable: '1',
        min_balance: '0.1',
        read_at: '2026-05-06T11:00:00.000Z',
        checked_at: '2026-05-06T11:59:30.000Z',
        error: 'connect ECONNREFUSED 127.0.0.1:8545',
        fee_reserve: null,
      },
    }),
    coin({
      coin: 'USDC',
      name: 'USD Coin (Ethereum)',
      decimals: 6,
      owed: '50',
      due: '50',
      due_accounts: 1,
      wallet: {
        demo: false,
        address: '0x00000000000000000000000000000000000f00d5',
        spendable: '100',
        min_balance: '5',
        read_at: '2026-05-06T11:58:30.000Z',
        checked_at: '2026-05-06T11:58:30.000Z',
        error: null,
        fee_reserve: { coin: 'ETH', spendable: '0.001', needed: '0.0016', shortfall: '0.0006' },
      },
      waiting: { open_payouts: 0, open_total: '0', accounts_for_funds: 1 },
    }),
  ],
};

const asAdmin = (client: QueryClient) => client.setQueryData(queryKeys.userInfo, ADMIN);

describe('the Treasury screen', () => {
  it('says it is loading, then names the failure', () => {
    expect(textOf(renderPage(<TreasuryPage />, { seed: asAdmin }))).toContain('Loading treasury…');
    const failed = renderPage(<TreasuryPage />, {
      seed: (client) => {
        asAdmin(client);
        failQuery(client, queryKeys.adminTreasury, 'Admin tools need a login with your 2FA code.');
      },
    });
    expect(textOf(failed)).toContain(
      'The treasury could not be loaded: Admin tools need a login with your 2FA code. Please reload the page to try again.',
    );
  });

  it('shows no figure to a user the session check has not called an admin', () => {
    const html = renderPage(<TreasuryPage />, {
      seed: (client) => client.setQueryData(queryKeys.adminTreasury, ANSWER),
    });
    expect(countTestIds(html, 'treasury-table')).toBe(0);
  });

  const html = renderPage(<TreasuryPage />, {
    path: '/admin/treasury',
    seed: (client) => {
      asAdmin(client);
      client.setQueryData(queryKeys.adminTreasury, ANSWER);
    },
  });
  const text = textOf(html);
  const rowHtml = (ticker: string) => {
    const start = html.indexOf(`data-testid="treasury-row-${ticker}"`);
    return html.slice(start, html.indexOf('</tr>', start));
  };
  const row = (ticker: string) => textOf(rowHtml(ticker).slice(rowHtml(ticker).indexOf('>') + 1));

  it('lists every coin with its figures, exact', () => {
    expect(countTestIds(html, 'treasury-table')).toBe(1);
    expect(text).toContain('Figures of 2026-05-06 12:00:00 UTC');
    expect(row('LTC')).toBe(
      'LTC Litecoin 2.3 LTC 2.3 LTC 2 accounts 2.2 LTC keeps 0.1 LTC read 90 s ago Short 0.2 LTC 1 payout open 0.25 LTC 1 account waiting for funds 3.7 LTC mined 6.25 − PPS 2.6 + fees 0.05',
    );
    expect(row('BTC')).toContain('No hot wallet');
  });

  it('marks the shortfalls, the underfunded fee reserve, a failing read and an old snapshot', () => {
    expect(text).toContain('Short of what is due: LTC, USDC.');
    expect(html).toContain('data-testid="treasury-short"');
    expect(row('USDC')).toContain('fees: 0.001 ETH (needs 0.0016)');
    expect(row('USDC')).toContain('0 USDC Fees short 0.0006 ETH');
    expect(row('ETH')).toContain('read 60 min ago last read failed 30 s ago: connect ECONNREFUSED 127.0.0.1:8545');
    expect(countTestIds(html, 'treasury-covered')).toBe(0);
    // Short rows are shaded; the others are not.
    expect(rowHtml('LTC')).toContain('bg-red-50');
    expect(rowHtml('USDC')).toContain('bg-red-50');
    expect(rowHtml('BTC')).not.toContain('bg-red-50');
  });
});

describe('treasury display rules', () => {
  it('calls a coin short for its own shortfall or its fee reserve’s', () => {
    expect(ANSWER.coins.map(isShort)).toEqual([false, true, false, true]);
    expect(shortCoins(ANSWER)).toEqual(['LTC', 'USDC']);
  });

  it('gives ages on the server’s clock, and calls a snapshot older than 5 minutes stale', () => {
    const now = '2026-05-06T12:00:00.000Z';
    expect(ageText('2026-05-06T11:59:15.000Z', now)).toBe('45 s');
    expect(ageText('2026-05-06T11:48:00.000Z', now)).toBe('12 min');
    expect(ageText('2026-05-06T09:00:00.000Z', now)).toBe('3 h');
    expect(ageText('2026-05-04T12:00:00.000Z', now)).toBe('2 d');
    expect(ageText('2026-05-06T12:00:05.000Z', now)).toBe('0 s');
    expect(isStale('2026-05-06T11:55:00.000Z', now)).toBe(false);
    expect(isStale('2026-05-06T11:54:59.000Z', now)).toBe(true);
    expect(isStale(null, now)).toBe(true);
  });
});
