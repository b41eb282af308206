import type { AccountSettings, UserConfigResponse } from '@lodestone/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { type KeyKind, regenerateKey, removeAccount } from '../../../api/account';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { CopyButton } from '../../../components/CopyButton';
import { Field, focusRing, inputClass, secondaryButtonClass } from '../../../components/form';
import { RefreshIcon, TrashIcon } from '../../../components/icons';
import { MESSAGES } from '../messages';
import { RedirectSettingsModal } from './RedirectSettingsModal';
import { formatFeeDiscount } from './settings';
import { WatcherLinks } from './WatcherLinks';

const KEY_NAMES: Record<KeyKind, string> = { api_key: 'API key', observer_key: 'observer link' };

/**
 * One account of the user (docs/decisions.md, Account pages (website), Settings): API key, referral code, actions, and
 * its watcher links, the observer link first (docs/dashboard.md, Watcher links).
 */
export function AccountCard({
  settings,
  otherAccounts,
}: {
  settings: AccountSettings;
  otherAccounts: readonly string[];
}) {
  const { username } = settings;
  const queryClient = useQueryClient();
  const [modal, setModal] = useState<'redirect' | 'delete' | KeyKind | null>(null);
  const close = () => setModal(null);

  const regenerate = useMutation({
    mutationFn: (key: KeyKind) => regenerateKey(username, key),
    onSuccess: ({ value }, key) => {
      // Show the new key at once; the next fetch of the config confirms it.
      queryClient.setQueryData<UserConfigResponse>(queryKeys.config, (config) =>
        config
          ? {
              ...config,
              account_specific: config.account_specific.map((a) =>
                a.username === username ? { ...a, [key]: value } : a,
              ),
            }
          : config,
      );
      // The default watcher link is the observer key.
      if (key === 'observer_key') void queryClient.invalidateQueries({ queryKey: queryKeys.watchers(username) });
      close();
    },
  });

  const remove = useMutation({
    mutationFn: () => removeAccount(username),
    // Account deletion reloads the page.
    onSuccess: () => window.location.reload(),
  });

  return (
    <article
      data-testid={`account-${username}`}
      className="rounded-xl border border-slate-200 p-4 sm:p-5 dark:border-slate-700"
    >
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h3 className="text-base font-semibold text-slate-900 dark:text-white">{username}</h3>
          {settings.fee_discount > 0 && (
            <span
              data-testid="fee-discount"
              className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800 dark:bg-green-900/50 dark:text-green-300"
            >
              Fee discount {formatFeeDiscount(settings.fee_discount)}
            </span>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            data-testid="redirect-settings"
            className={secondaryButtonClass}
            onClick={() => setModal('redirect')}
          >
            Redirect settings
          </button>
          {settings.referral_show && (
            <Link
              to={`/referrals?account=${encodeURIComponent(username)}`}
              data-testid="referrals-button"
              className={secondaryButtonClass}
            >
              Referrals
            </Link>
          )}
          <button
            type="button"
            data-testid="delete-account"
            className={`${secondaryButtonClass} text-red-700 dark:text-red-400`}
            onClick={() => setModal('delete')}
          >
            <TrashIcon className="size-4" />
            Delete
          </button>
        </div>
      </header>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <SecretField
          label="API key"
          value={settings.api_key}
          testId="api-key"
          hint="Gives read access to this account's data through the API (api/user?apiKey=…). Keep it private."
          copyLabel="Copy the API key"
        >
          <RegenerateButton label="New API key" onClick={() => setModal('api_key')} />
        </SecretField>
        <SecretField
          label="Referral code"
          value={settings.referral_code}
          testId="referral-code"
          hint="New miners who register with it earn you 20.0% of the fees they pay."
          copyLabel="Copy the referral code"
        />
      </div>
      <WatcherLinks
        account={username}
        origin={window.location.origin}
        regenerate={<RegenerateButton label="New observer link" onClick={() => setModal('observer_key')} />}
      />

      {modal === 'redirect' && <RedirectSettingsModal account={username} suggestions={otherAccounts} onClose={close} />}
      {(modal === 'api_key' || modal === 'observer_key') && (
        <ConfirmModal
          title={`New ${KEY_NAMES[modal]} for ${username}`}
          confirmLabel="Generate"
          pendingLabel="Generating…"
          pending={regenerate.isPending}
          error={regenerate.error ? serverErrorText(regenerate.error, MESSAGES.settingsFailed) : null}
          onConfirm={() => regenerate.mutate(modal)}
          onClose={() => {
            regenerate.reset();
            close();
          }}
          testId="regenerate-modal"
        >
          <p>
            The current {KEY_NAMES[modal]} stops working at once. Anything that uses it (apps, scripts, people you
            shared it with) needs the new one.
          </p>
        </ConfirmModal>
      )}
      {modal === 'delete' && (
        <ConfirmModal
          title={`Delete ${username}?`}
          confirmLabel="Delete account"
          pendingLabel="Deleting…"
          danger
          pending={remove.isPending}
          error={remove.error ? serverErrorText(remove.error, MESSAGES.settingsFailed) : null}
          onConfirm={() => remove.mutate()}
          onClose={() => {
            remove.reset();
            close();
          }}
          testId="delete-modal"
        >
          <p>
            Workers mining as <strong>{username}.*</strong> will no longer be credited, and the account's keys and
            settings are removed. This cannot be undone.
          </p>
        </ConfirmModal>
      )}
    </article>
  );
}

/** A read-only secret with its copy button, then `children` (its regenerate button, where it has one). */
function SecretField({
  label,
  value,
  hint,
  testId,
  copyLabel,
  children,
}: {
  label: string;
  value: string;
  hint?: ReactNode;
  testId: string;
  copyLabel: string;
  children?: ReactNode;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <>
          <div className="flex items-center gap-2">
            <input
              id={id}
              readOnly
              value={value}
              data-testid={testId}
              onFocus={(event) => event.currentTarget.select()}
              className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
            />
            <CopyButton text={value} label={copyLabel} />
            {children}
          </div>
          {hint && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
        </>
      )}
    </Field>
  );
}

function RegenerateButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      className={`inline-flex size-9 shrink-0 items-center justify-center rounded-lg border border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 ${focusRing}`}
    >
      <RefreshIcon className="size-4" />
    </button>
  );
}
