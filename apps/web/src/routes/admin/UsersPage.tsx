import type { AdminUser } from '@lodestone/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { getAdminUsers, loginAsUser } from '../../api/admin';
import { queryKeys, USER_QUERY_ROOT } from '../../api/queryKeys';
import { LoadState, Panel } from '../../components/AccountPage';
import { Breakable, EMAIL_BREAKS } from '../../components/Breakable';
import { phoneCell, stackClasses } from '../../components/DataTable';
import { inputClass, primaryButtonClass } from '../../components/form';
import { AdminShell, Pager } from './AdminShell';
import { filterUsers, formatLastLogin, USERS_SEARCH_PLACEHOLDER, usersPage } from './users';

/** On a phone each user is a card headed by the e-mail (the same cards as every table's). */
const stack = stackClasses('sm');

/**
 * Users ('List of Users', spec "Admin"): the whole list is fetched once and searched and paged
 * here. Login logs in as that user and opens their dashboard; a failed login is only logged (spec 8).
 */
export default function UsersPage() {
  return (
    <AdminShell title="List of Users">
      <UsersList />
    </AdminShell>
  );
}

function UsersList() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useMutation({
    mutationFn: loginAsUser,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: USER_QUERY_ROOT });
      navigate('/dashboard');
    },
    onError: (error, email) => console.error(`Login as ${email} failed:`, error),
  });
  const users = useQuery({
    queryKey: queryKeys.adminUsers,
    queryFn: ({ signal }) => getAdminUsers(signal),
    staleTime: 0,
    // Every fetch is recorded in the admin's log: refetch when the page opens, not on every focus.
    refetchOnWindowFocus: false,
    // Once logged in as someone else the browser holds their session: dropping the cached list must
    // not fetch it again as them (the admin API answers other users 404).
    enabled: login.status !== 'pending' && login.status !== 'success',
  });
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const searchId = useId();

  if (!users.data) {
    return (
      <Panel title="Users">
        <LoadState isPending={users.isPending} error={users.error} />
      </Panel>
    );
  }
  const filtered = filterUsers(users.data, search);
  const { rows, window } = usersPage(filtered, page);

  return (
    <Panel title="Users" description={`${filtered.length} of ${users.data.length} users`} testId="admin-users">
      <label htmlFor={searchId} className="sr-only">
        {USERS_SEARCH_PLACEHOLDER}
      </label>
      <input
        id={searchId}
        type="search"
        className={inputClass}
        placeholder={USERS_SEARCH_PLACEHOLDER}
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setPage(1);
        }}
        data-testid="users-search"
      />
      <div className={`mt-4 overflow-x-auto ${stack.frame}`}>
        <table className={`w-full text-left text-sm ${stack.table}`} data-testid="users-table">
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-700 dark:text-slate-400">
            <tr>
              <th scope="col" className="py-2 pr-4">
                Email
              </th>
              <th scope="col" className="py-2 pr-4">
                Username
              </th>
              <th scope="col" className="hidden py-2 pr-4 md:table-cell">
                2FA
              </th>
              <th scope="col" className="hidden py-2 pr-4 md:table-cell">
                Last Login
              </th>
              <th scope="col" className="py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((user) => (
              <UserRow key={user.email} user={user} busy={login.isPending} onLogin={() => login.mutate(user.email)} />
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={5} className="py-6 text-center text-slate-500 dark:text-slate-400">
                  No users match this search.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager
        page={window.page}
        pageCount={window.pageCount}
        onPage={setPage}
        previousLabel="Prev"
        nextLabel="Next"
        testId="users-pager"
      />
    </Panel>
  );
}

function UserRow({ user, busy, onLogin }: { user: AdminUser; busy: boolean; onLogin: () => void }) {
  return (
    <tr data-testid="user-row" className="align-top">
      <td
        data-testid="user-email"
        className="py-2 pr-4 text-slate-900 dark:text-white"
        {...phoneCell('Email', 'primary')}
      >
        <Breakable text={user.email} at={EMAIL_BREAKS} />
      </td>
      <td className="py-2 pr-4 text-slate-700 dark:text-slate-300" {...phoneCell('Username')}>
        <div>
          {user.usernames.map((name) => (
            <div key={name}>{name}</div>
          ))}
        </div>
      </td>
      <td className="hidden py-2 pr-4 md:table-cell" {...phoneCell('2FA', 'hide')}>
        <input
          type="checkbox"
          checked={user.has_2fa}
          readOnly
          disabled
          aria-label={`2FA ${user.has_2fa ? 'enabled' : 'disabled'} for ${user.email}`}
          className="size-4 accent-amber-500"
        />
      </td>
      <td
        className="hidden py-2 pr-4 whitespace-nowrap text-slate-600 md:table-cell dark:text-slate-400"
        {...phoneCell('Last Login', 'hide')}
      >
        {formatLastLogin(user.last_login)}
      </td>
      <td className="py-2 text-right">
        {/* ml-auto: on a phone the cell is a flex line of the user's card, and the button sits at its end. */}
        <button
          type="button"
          className={`${primaryButtonClass} ml-auto`}
          disabled={busy}
          onClick={onLogin}
          data-testid="user-login"
        >
          Login
        </button>
      </td>
    </tr>
  );
}
