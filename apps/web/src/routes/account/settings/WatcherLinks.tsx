import type { WatcherLink } from '@lodestone/contract';
import { type ReactNode, useState } from 'react';
import { createWatcherLink, revokeWatcherLink } from '../../../api/account';
import { useWatcherLinks } from '../../../api/accountQueries';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { LoadState } from '../../../components/AccountPage';
import { CopyButton } from '../../../components/CopyButton';
import type { Column } from '../../../components/DataTable';
import { Form, FormMessage, inputClass, PendingButton, SelectField, TextField } from '../../../components/form';
import { actionsColumn } from '../../../components/tableColumns';
import { draftFields } from './draftFields';
import { RemovableList, RemoveRowButton, useListChange } from './listChanges';
import {
  observerLink,
  WATCHER_SCOPE_TEXT,
  type WatcherDraft,
  watcherCreateForm,
  watcherExpiryText,
  watcherLastUsedText,
} from './settings';

export const WATCHERS_TEXT = {
  intro:
    'Read-only links to this account’s dashboard, each showing only what you choose: a hosting provider the machines, an accountant the revenue. The observer link shows everything and never expires; New observer link replaces it.',
  createFailed: 'Could not create the link. Please try again.',
  revokeFailed: 'Could not revoke the link. Please try again.',
} as const;

const EMPTY_DRAFT: WatcherDraft = { name: '', scope: 'mining', days: '' };

/**
 * The watcher links of one account in Settings (docs/dashboard.md, Watcher links): the list with each link's URL to copy,
 * a form for a new one, and Revoke for each but the default link (the account's observer key), whose row has the
 * card's New observer link instead (`regenerate`).
 */
export function WatcherLinks({
  account,
  origin,
  regenerate,
}: {
  account: string;
  /** The site's origin the links are built on (window.location.origin). */
  origin: string;
  /** The default link's "new observer link" button. */
  regenerate: ReactNode;
}) {
  const links = useWatcherLinks(account);
  return (
    <section data-testid="watcher-links" className="mt-5 border-t border-slate-200 pt-4 dark:border-slate-800">
      <h4 className="text-sm font-semibold text-slate-900 dark:text-white">Watcher links</h4>
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{WATCHERS_TEXT.intro}</p>
      {links.data ? (
        <WatcherList account={account} origin={origin} links={links.data.links} regenerate={regenerate} />
      ) : (
        <LoadState isPending={links.isPending} error={links.error} />
      )}
      <CreateWatcherLink account={account} />
    </section>
  );
}

/** The links, the default one first; a link is revoked after one more question. */
function WatcherList({
  account,
  origin,
  links,
  regenerate,
}: {
  account: string;
  origin: string;
  links: readonly WatcherLink[];
  regenerate: ReactNode;
}) {
  return (
    <RemovableList
      list={queryKeys.watchers(account)}
      remove={(id) => revokeWatcherLink(account, id)}
      failed={WATCHERS_TEXT.revokeFailed}
      testId="watcher-table"
      columns={(ask) => columns(origin, regenerate, ask)}
      rows={links}
      rowTestId="watcher-row"
      className="mt-3"
      question={(revoking) => ({
        title: `Revoke ${revoking.name}?`,
        confirmLabel: 'Revoke',
        pendingLabel: 'Revoking…',
        testId: 'watcher-revoke-modal',
        children: (
          <p>
            The link stops working at once: whoever has it sees a link that does not work, on the dashboard and the API.
            This cannot be undone; you can make a new link instead.
          </p>
        ),
      })}
    />
  );
}

/** On a phone each link is a card headed by its name, its URL on a line of its own, Revoke at the end. */
function columns(origin: string, regenerate: ReactNode, onRevoke: (link: WatcherLink) => void): Column<WatcherLink>[] {
  return [
    {
      label: 'Name',
      phone: 'primary',
      rowHeader: true,
      testId: 'watcher-name',
      cellClassName: 'text-slate-900 dark:text-white',
      // A long name wraps, between words where it can.
      cell: (link) => <span className="whitespace-normal [overflow-wrap:anywhere]">{link.name}</span>,
    },
    {
      label: 'Shows',
      testId: 'watcher-scope',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (link) => WATCHER_SCOPE_TEXT[link.scope],
    },
    {
      label: 'Expires',
      testId: 'watcher-expires',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (link) =>
        link.expired ? (
          <span className="font-medium text-red-700 dark:text-red-400">{watcherExpiryText(link)}</span>
        ) : (
          watcherExpiryText(link)
        ),
    },
    {
      label: 'Last used',
      testId: 'watcher-last-used',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: watcherLastUsedText,
    },
    {
      label: 'Link',
      // On a phone the URL takes the rest of its line.
      cellClassName: '[&>span]:flex-1',
      cell: (link) => {
        const url = observerLink(origin, link.key);
        return (
          <span className="flex items-center justify-end gap-2">
            <input
              readOnly
              value={url}
              aria-label={`Link of ${link.name}`}
              data-testid={link.default ? 'observer-link' : 'watcher-url'}
              onFocus={(event) => event.currentTarget.select()}
              className={`${inputClass} min-w-0 flex-1 font-mono text-xs @3xl:w-64 @3xl:flex-none`}
            />
            <CopyButton
              text={url}
              label={`Copy the link of ${link.name}`}
              testId={link.default ? 'copy-observer-link' : 'copy-watcher-url'}
            />
          </span>
        );
      },
    },
    actionsColumn((link) =>
      link.default ? (
        regenerate
      ) : (
        <RemoveRowButton label="Revoke" testId="watcher-revoke" onClick={() => onRevoke(link)} />
      ),
    ),
  ];
}

/** A new link: its name, what it shows and in how many days it stops working (none: never). */
function CreateWatcherLink({ account }: { account: string }) {
  const [draft, setDraft] = useState<WatcherDraft>(EMPTY_DRAFT);
  const create = useListChange(
    queryKeys.watchers(account),
    (form: FormData) => createWatcherLink(account, form),
    () => setDraft(EMPTY_DRAFT),
  );
  return (
    <WatcherCreateForm
      draft={draft}
      onChange={(change) => setDraft((current) => ({ ...current, ...change }))}
      onSubmit={() => {
        if (!create.isPending) create.mutate(watcherCreateForm(draft));
      }}
      pending={create.isPending}
      error={create.error}
    />
  );
}

/**
 * The new link's fields and its one message: a refusal in the server's words (a missing name, an expiry out of range,
 * the limit of links reached), or the form's fallback when the call never reached the server.
 */
export function WatcherCreateForm({
  draft,
  onChange,
  onSubmit,
  pending,
  error,
}: {
  draft: WatcherDraft;
  onChange: (change: Partial<WatcherDraft>) => void;
  onSubmit: () => void;
  pending: boolean;
  error: unknown;
}) {
  const field = draftFields(draft, onChange);
  return (
    <Form onSubmit={onSubmit} className="mt-4" data-testid="watcher-create">
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label="Name"
          name="name"
          placeholder="Hosting provider"
          className="min-w-48 flex-1"
          {...field('name')}
          data-testid="watcher-name-input"
        />
        <SelectField
          label="Shows"
          name="scope"
          className="min-w-44"
          {...field('scope')}
          data-testid="watcher-scope-input"
          options={WATCHER_SCOPE_TEXT}
        />
        <TextField
          label="Expires in (days)"
          name="expires_in_days"
          inputMode="numeric"
          placeholder="Never"
          className="w-36"
          {...field('days')}
          data-testid="watcher-days-input"
        />
        <PendingButton type="submit" pending={pending} label="Create link" pendingLabel="Creating…" />
      </div>
      <div className="mt-3">
        <FormMessage error={error ? serverErrorText(error, WATCHERS_TEXT.createFailed) : null} />
      </div>
    </Form>
  );
}
