import type { AdminUser } from '@lodestone/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { getAdminUsers, loginAsUser } from '../../api/admin';
import { queryKeys, USER_QUERY_ROOT } from '../../api/queryKeys';
import { LoadState, Panel } from '../../components/AccountPage';
import { Breakable, EMAIL_BREAKS } from '../../components/Breakable';
import { type Column, DataTable } from '../../components/DataTable';
import { Field, inputClass, primaryButtonClass } from '../../components/form';
import { Pager } from '../../components/sections';
import { actionsColumn } from '../../components/tableColumns';
import { AdminShell } from './AdminShell';
import { filterUsers, formatLastLogin, USERS_SEARCH_PLACEHOLDER, usersPage } from './users';

/**
 * Users ('List of Users', docs/admin.md, The screens): the whole list is fetched once and searched and paged
 * here. Login logs in as that user and opens their dashboard; a failed login is only logged.
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
      <Field label={USERS_SEARCH_PLACEHOLDER} labelClassName="sr-only">
        {(id) => (
          <input
            id={id}
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
        )}
      </Field>
      <DataTable
        testId="users-table"
        columns={columns(login.isPending, (email) => login.mutate(email))}
        rows={rows}
        rowKey={(user) => user.email}
        rowTestId="user-row"
        rowProps={() => ({ className: 'align-top' })}
        empty="No users match this search."
        className="mt-4"
        tableClassName="w-full text-left text-sm"
        headClassName="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-700 dark:text-slate-400"
        headerCellClassName="py-2"
        cellClassName="py-2"
        stackBelow="sm"
      />
      <Pager window={window} onPage={setPage} label="Users" navTestId="users-pager" testId="users-pager-status" />
    </Panel>
  );
}

/** On a phone each user is a card headed by the e-mail, with its Login button; 2FA and last login are left out. */
function columns(busy: boolean, onLogin: (email: string) => void): Column<AdminUser>[] {
  return [
    {
      label: 'Email',
      phone: 'primary',
      testId: 'user-email',
      className: 'pr-4',
      cellClassName: 'text-slate-900 dark:text-white',
      cell: (user) => <Breakable text={user.email} at={EMAIL_BREAKS} />,
    },
    {
      label: 'Username',
      className: 'pr-4',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (user) => (
        <div>
          {user.usernames.map((name) => (
            <div key={name}>{name}</div>
          ))}
        </div>
      ),
    },
    {
      label: '2FA',
      phone: 'hide',
      className: 'hidden pr-4 md:table-cell',
      cell: (user) => (
        <input
          type="checkbox"
          checked={user.has_2fa}
          readOnly
          disabled
          aria-label={`2FA ${user.has_2fa ? 'enabled' : 'disabled'} for ${user.email}`}
          className="size-4 accent-amber-500"
        />
      ),
    },
    {
      label: 'Last Login',
      phone: 'hide',
      className: 'hidden pr-4 md:table-cell',
      cellClassName: 'whitespace-nowrap text-slate-600 dark:text-slate-400',
      cell: (user) => formatLastLogin(user.last_login),
    },
    actionsColumn((user) => (
      <button
        type="button"
        className={primaryButtonClass}
        disabled={busy}
        onClick={() => onLogin(user.email)}
        data-testid="user-login"
      >
        Login
      </button>
    )),
  ];
}
