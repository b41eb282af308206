import { algorithmByKey, pageOf } from '@lodestone/domain';
import { type ReactNode, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAccounts, useReferrals } from '../../api/accountQueries';
import { AccountPage, LoadState, Panel } from '../../components/AccountPage';
import { type Column, DataTable } from '../../components/DataTable';
import { inputClass } from '../../components/form';
import { Pager } from '../../components/sections';
import { pickAccount } from '../../lib/accounts';
import { useSelectedAccount } from '../../state/hooks';
import { queryParam } from './forms';
import { filterReferrals, formatReferralHashrate, REFERRALS_PAGE_SIZE, type Referral } from './referrals';

/** On a phone each referred account is a card headed by its name; its hashrates one a line. */
const REFERRAL_COLUMNS: readonly Column<Referral>[] = [
  { label: 'Username', rowHeader: true, phone: 'primary', cell: (row) => row.username },
  { label: 'Revenue (BTC)', align: 'right', testId: 'referral-revenue', cell: (row) => row.revenue },
  {
    label: 'Hashrate',
    align: 'right',
    cell: (row) =>
      row.hashrates.length === 0 ? (
        '—'
      ) : (
        <ul>
          {row.hashrates.map((h) => (
            <li key={h.algorithm}>{formatReferralHashrate(h)}</li>
          ))}
        </ul>
      ),
  },
];
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
            <DataTable
              testId="referrals-table"
              className="mt-4"
              columns={REFERRAL_COLUMNS}
              rows={rows}
              rowKey={(row) => row.username}
              rowTestId="referral-row"
              empty={data.referals.length === 0 ? 'Nobody has used your referral code yet.' : 'No match.'}
            />
            <Pager window={paging} onPage={setPage} testId="referral-page" label="Referrals" />
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
