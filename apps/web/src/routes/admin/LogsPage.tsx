import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { type LogFilters, searchLogs } from '../../api/admin';
import { queryKeys } from '../../api/queryKeys';
import { Panel } from '../../components/AccountPage';
import { Form, primaryButtonClass, secondaryButtonClass, TextField } from '../../components/form';
import { Pager } from '../../components/sections';
import { AdminShell } from './AdminShell';
import {
  formatLogTime,
  LOGS_MESSAGES,
  type LogRow,
  logFilters,
  logPageWindow,
  logValueText,
  normalizeLogsAnswer,
  showingText,
} from './logs';

/**
 * Logs ('User logs', docs/admin.md, The screens): search the user log by e-mail, by account, or both (an
 * account of that user). States: idle, loading, error, empty, results; 20 entries a page, paged by
 * the server. Clear Filters empties both fields and the results.
 */
export default function LogsPage() {
  return (
    <AdminShell title="User logs">
      <UserLogs />
    </AdminShell>
  );
}

interface Search {
  filters: LogFilters;
  page: number;
  /** Counts presses of Search, so searching again asks the server again. */
  run: number;
}

function UserLogs() {
  const [email, setEmail] = useState('');
  const [account, setAccount] = useState('');
  const [search, setSearch] = useState<Search | null>(null);
  const runs = useRef(0);

  const logs = useQuery({
    queryKey: queryKeys.adminLogs(search),
    queryFn: ({ signal }) => (search ? searchLogs(search.filters, search.page, signal) : Promise.resolve(null)),
    enabled: search !== null,
    staleTime: 0,
    refetchOnWindowFocus: false,
    select: (body) => (search ? normalizeLogsAnswer(body, search.page) : null),
  });

  const submit = () => {
    const filters = logFilters(email, account);
    // Nothing typed: nothing is sent, and the screen asks for a filter.
    runs.current += 1;
    setSearch(filters ? { filters, page: 1, run: runs.current } : null);
  };

  const clear = () => {
    setEmail('');
    setAccount('');
    setSearch(null);
  };

  const loading = search !== null && logs.isFetching;
  const result = search !== null && !logs.isError ? logs.data : null;

  return (
    <Panel title="Search the user log" testId="admin-logs">
      <Form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" data-testid="logs-form">
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Account"
          autoComplete="off"
          spellCheck={false}
          value={account}
          onChange={(event) => setAccount(event.target.value)}
        />
        <div className="flex gap-2 sm:col-span-2">
          <button type="submit" className={primaryButtonClass} disabled={loading}>
            {loading ? 'Searching…' : 'Search'}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={clear}>
            Clear Filters
          </button>
        </div>
      </Form>

      <div className="mt-6" data-testid="logs-results">
        {search === null ? (
          <Notice>{LOGS_MESSAGES.idle}</Notice>
        ) : logs.isError ? (
          <p role="alert" className="py-8 text-center text-red-600 dark:text-red-400">
            {LOGS_MESSAGES.failed}
          </p>
        ) : !result ? (
          <Notice>{LOGS_MESSAGES.loading}</Notice>
        ) : result.total === 0 ? (
          <Notice>{LOGS_MESSAGES.none}</Notice>
        ) : (
          <>
            <p data-testid="logs-showing" className="mb-3 text-sm text-slate-600 dark:text-slate-400">
              {showingText(search.page, result.total)}
            </p>
            <ol className="space-y-3">
              {result.rows.map((row) => (
                <LogItem key={row.key} row={row} />
              ))}
            </ol>
            <Pager
              window={logPageWindow(result.total, search.page)}
              onPage={(page) => setSearch({ ...search, page })}
              label="Log entries"
              previousLabel="← Previous"
              nextLabel="Next →"
              navTestId="logs-pager"
              testId="logs-pager-status"
            />
          </>
        )}
      </div>
    </Panel>
  );
}

function Notice({ children }: { children: string }) {
  return (
    <p role="status" className="py-8 text-center text-slate-500 dark:text-slate-400">
      {children}
    </p>
  );
}

const DASH = '—';

function LogItem({ row }: { row: LogRow }) {
  const value = logValueText(row.log_value);
  return (
    <li data-testid="log-entry" className="rounded-xl border border-slate-200 p-3 text-sm dark:border-slate-700">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span data-testid="log-name" className="font-mono font-semibold text-slate-900 dark:text-white">
          {row.log_name ?? DASH}
        </span>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {row.account && <span className="mr-2">{row.account}</span>}
          <time dateTime={row.time ?? undefined}>{formatLogTime(row.time) ?? DASH}</time>
        </span>
      </div>
      <pre
        data-testid="log-value"
        className="mt-2 overflow-x-auto rounded-lg bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all text-slate-700 dark:bg-slate-950 dark:text-slate-300"
      >
        {value ?? DASH}
      </pre>
    </li>
  );
}
