import type { SessionsResponse } from '@lodestone/contract';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { logOutSession } from '../../../api/account';
import { useSessions } from '../../../api/accountQueries';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { useLogout } from '../../../api/useLogout';
import { LoadState, Panel } from '../../../components/AccountPage';
import { ConfirmModal } from '../../../components/ConfirmModal';
import type { Column } from '../../../components/DataTable';
import { secondaryButtonClass } from '../../../components/form';
import { actionsColumn } from '../../../components/tableColumns';
import { formatDateTime } from '../../../lib/dates';
import { RemovableList } from './listChanges';

type Session = SessionsResponse['sessions'][number];

export const SESSIONS_TEXT = {
  intro:
    'Every browser logged in to your account. Last active is kept to within 10 minutes, and only the network a session was used from is stored, not its full address.',
  unknownNetwork: 'Unknown network',
  thisDevice: 'This device',
  admin: 'Admin (logged in as you)',
  logoutFailed: 'Could not log out that session. Please try again.',
  everywhereFailed: 'Could not log out everywhere. Please try again.',
} as const;

/**
 * Sessions in Settings (docs/accounts.md, "Sessions"): where the user is logged in, a Log out for each other
 * session, and Log out everywhere, which ends this session too and goes to the login page.
 */
export function SessionsPanel() {
  const sessions = useSessions();
  const [everywhere, setEverywhere] = useState(false);
  const endSessions = useLogout();
  // Success leaves this page (useLogout); a failure is shown in the dialog and the session stays.
  const logoutEverywhere = useMutation({ mutationFn: () => endSessions(true) });
  return (
    <Panel
      title="Sessions"
      description={SESSIONS_TEXT.intro}
      testId="sessions-panel"
      actions={
        <button
          type="button"
          data-testid="logout-everywhere"
          className={`${secondaryButtonClass} text-red-700 dark:text-red-400`}
          onClick={() => setEverywhere(true)}
        >
          Log out everywhere
        </button>
      }
    >
      {sessions.data ? (
        <SessionList sessions={sessions.data.sessions} />
      ) : (
        <LoadState isPending={sessions.isPending} error={sessions.error} />
      )}
      {everywhere && (
        <ConfirmModal
          title="Log out everywhere?"
          confirmLabel="Log out everywhere"
          pendingLabel="Logging out…"
          danger
          pending={logoutEverywhere.isPending}
          error={
            logoutEverywhere.error ? serverErrorText(logoutEverywhere.error, SESSIONS_TEXT.everywhereFailed) : null
          }
          onConfirm={() => logoutEverywhere.mutate()}
          onClose={() => {
            logoutEverywhere.reset();
            setEverywhere(false);
          }}
          testId="logout-everywhere-modal"
        >
          <p>
            Every session of your account ends, this one too: each browser listed here, this one included, has to log in
            again.
          </p>
        </ConfirmModal>
      )}
    </Panel>
  );
}

/** The sessions, one row each; every row but this browser's has its Log out, asked for once more before it ends. */
export function SessionList({ sessions }: { sessions: readonly Session[] }) {
  // A session that had ended already counts as ended (account.ts): the list is read again, with no error.
  return (
    <RemovableList
      list={queryKeys.sessions}
      remove={logOutSession}
      failed={SESSIONS_TEXT.logoutFailed}
      testId="sessions-table"
      columns={columns}
      rows={sessions}
      rowTestId="session-row"
      question={(ending) => ({
        title: `Log out ${ending.device}?`,
        confirmLabel: 'Log out',
        pendingLabel: 'Logging out…',
        testId: 'session-logout-modal',
        children: (
          <p>
            The session from {ending.ip_range ?? 'an unknown network'}, last active{' '}
            {formatDateTime(ending.last_seen_at)}, ends at once: that browser has to log in again.
          </p>
        ),
      })}
    />
  );
}

/** On a phone each session is a card headed by its device and badges, with its Log out at the end. */
function columns(onLogout: (session: Session) => void): Column<Session>[] {
  return [
    {
      label: 'Device',
      phone: 'primary',
      rowHeader: true,
      testId: 'session-device',
      cellClassName: 'whitespace-normal text-slate-900 dark:text-white',
      // The spaces keep the badges apart as text (for screen readers, and where the line breaks); the gap draws them.
      cell: (session) => (
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span>{session.device}</span>
          {session.current && (
            <>
              {' '}
              <Badge
                testId="session-current"
                tone="bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-300"
              >
                {SESSIONS_TEXT.thisDevice}
              </Badge>
            </>
          )}
          {session.admin && (
            <>
              {' '}
              <Badge testId="session-admin" tone="bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300">
                {SESSIONS_TEXT.admin}
              </Badge>
            </>
          )}
        </span>
      ),
    },
    {
      label: 'Network',
      testId: 'session-network',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (session) => session.ip_range ?? SESSIONS_TEXT.unknownNetwork,
    },
    {
      label: 'Signed in',
      testId: 'session-created',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (session) => formatDateTime(session.created_at),
    },
    {
      label: 'Last active',
      testId: 'session-last-active',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (session) => formatDateTime(session.last_seen_at),
    },
    actionsColumn((session) =>
      session.current ? null : (
        <button
          type="button"
          data-testid="session-logout"
          className={secondaryButtonClass}
          onClick={() => onLogout(session)}
        >
          Log out
        </button>
      ),
    ),
  ];
}

function Badge({ testId, tone, children }: { testId: string; tone: string; children: ReactNode }) {
  return (
    <span data-testid={testId} className={`rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tone}`}>
      {children}
    </span>
  );
}
