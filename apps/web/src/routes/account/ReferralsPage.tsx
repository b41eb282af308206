import { algorithmByKey, pageOf } from '@lodestone/domain';
import { type ReactNode, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { inputClass, secondaryButtonClass } from '../../components/form';
import { useSelectedAccount } from '../../state/hooks';
import { AccountPage, LoadState, Panel } from './AccountPage';
import { pickAccount, queryParam } from './forms';
import { useAccounts, useReferrals } from './queries';
import { filterReferrals, formatReferralHashrate, REFERRALS_PAGE_SIZE } from './referrals';

/**
 * Referrals (/referrals): what one account's referral code brought in — totals, then the referred
 * accounts with client-side search and paging by 10. The account is `?account=` (the Settings
 * button sets it), else the dashboard's selected account, else the first.
 */
export default function ReferralsPage() {
  const [search] = useSearchParams();
  const [selectedAccount] = useSelectedAccount();
  const accounts = useAccounts();
  const account = accounts.data ? pickAccount(accounts.data, queryParam(search, 'account'), selectedAccount) : null;
  const referrals = useReferrals(account);
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const searchId = useId();

  const data = referrals.data;
  const matching = data ? filterReferrals(data.referals, query) : [];
  const { rows, window: paging } = pageOf(matching, REFERRALS_PAGE_SIZE, page);

  return (
    <AccountPage
      title="Referrals"
      intro={
        <>
          Miners who register with your referral code earn you 20.0% of the pool fees they pay.
          {account && (
            <>
              {' '}
              Account <strong className="font-semibold text-slate-900 dark:text-white">{account}</strong>.
            </>
          )}
        </>
      }
    >
      {accounts.data && account === null ? (
        <p className="text-slate-600 dark:text-slate-400">You have no mining account yet.</p>
      ) : !data ? (
        <LoadState isPending={accounts.isPending || referrals.isPending} error={accounts.error ?? referrals.error} />
      ) : (
        <>
          <dl className="grid gap-4 sm:grid-cols-3">
            <Stat label="Referred accounts" testId="referral-count">
              {data.referral_count}
            </Stat>
            <Stat label="Referral revenue">{data.revenue} BTC</Stat>
            <Stat label="Referred hashrate">
              {data.hashrates.length === 0 ? (
                '—'
              ) : (
                <ul className="space-y-0.5 text-sm font-medium">
                  {data.hashrates.map((h) => (
                    <li key={h.algorithm} className="flex justify-between gap-4">
                      <span>{algorithmByKey(h.algorithm)?.name ?? h.algorithm.toUpperCase()}</span>
                      <span>
                        {h.value.toFixed(2)} {h.units}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Stat>
          </dl>

          <Panel title="Referred accounts" testId="referrals">
            <label htmlFor={searchId} className="sr-only">
              Search
            </label>
            <input
              id={searchId}
              type="search"
              placeholder="Search"
              data-testid="referral-search"
              className={`${inputClass} max-w-xs`}
              value={query}
              onChange={(event) => {
                setQuery(event.target.value);
                setPage(1);
              }}
            />
            <div className="mt-4 overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase dark:border-slate-700 dark:text-slate-400">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-semibold">
                      Username
                    </th>
                    <th scope="col" className="py-2 pr-4 font-semibold">
                      Revenue (BTC)
                    </th>
                    <th scope="col" className="py-2 font-semibold">
                      Hashrate
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.length === 0 ? (
                    <tr>
                      <td colSpan={3} className="py-6 text-center text-slate-500 dark:text-slate-400">
                        {data.referals.length === 0 ? 'Nobody has used your referral code yet.' : 'No match.'}
                      </td>
                    </tr>
                  ) : (
                    rows.map((row) => (
                      <tr
                        key={row.username}
                        data-testid="referral-row"
                        className="border-b border-slate-100 last:border-0 dark:border-slate-800"
                      >
                        <td className="py-2 pr-4 font-medium">{row.username}</td>
                        <td className="py-2 pr-4 tabular-nums">{row.revenue}</td>
                        <td className="py-2 tabular-nums">
                          {row.hashrates.length === 0 ? '—' : row.hashrates.map(formatReferralHashrate).join(', ')}
                        </td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
            <div className="mt-4 flex items-center justify-between gap-2 text-sm">
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={!paging.hasPrev}
                onClick={() => setPage(paging.page - 1)}
              >
                Prev
              </button>
              <span data-testid="referral-page">
                Page {paging.page} of {paging.pageCount}
              </span>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={!paging.hasNext}
                onClick={() => setPage(paging.page + 1)}
              >
                Next
              </button>
            </div>
          </Panel>
        </>
      )}
    </AccountPage>
  );
}

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className="mt-1 text-xl font-semibold text-slate-900 tabular-nums dark:text-white">
        {children}
      </dd>
    </div>
  );
}
