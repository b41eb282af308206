import type { UserConfigResponse } from '@lodestone/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { createAccount, updateUserConfig } from '../../../api/account';
import { useTelegram, useUserConfig } from '../../../api/accountQueries';
import { serverErrorText } from '../../../api/errors';
import { useUserInfo } from '../../../api/queries';
import { queryKeys } from '../../../api/queryKeys';
import { AccountPage, LoadState, Panel } from '../../../components/AccountPage';
import {
  Form,
  FormMessage,
  linkClass,
  PendingButton,
  primaryButtonClass,
  secondaryButtonClass,
  TextField,
  Toggle,
} from '../../../components/form';
import { newAccountName } from '../../../lib/accounts';
import { MESSAGES } from '../messages';
import { AccountCard } from './AccountCard';
import { draftFields } from './draftFields';
import { HashrateAlertsPanel } from './HashrateAlertsPanel';
import { SessionsPanel } from './SessionsPanel';
import { configUpdateForm, preferencesProblem, type Toggles, togglesFromConfig } from './settings';
import { TelegramPanel } from './TelegramPanel';
import { DisableTwoFactorModal, EnableTwoFactorModal } from './TwoFactorModals';

/**
 * Settings (docs/decisions.md, Account pages (website)): account info with 2FA, the sessions of the login
 * (docs/accounts.md, Sessions), notification and privacy toggles, the hashrate alerts (docs/notifications.md), and per account the API key, observer link, referral
 * code, redirect settings, referrals and deletion; plus creating a new account.
 */
export default function SettingsPage() {
  const config = useUserConfig();
  return (
    <AccountPage
      title="Settings"
      intro="Your login and where it is in use, notifications, privacy and mining accounts."
    >
      {config.data ? (
        <SettingsPanels config={config.data} />
      ) : (
        <LoadState isPending={config.isPending} error={config.error} />
      )}
    </AccountPage>
  );
}

function SettingsPanels({ config }: { config: UserConfigResponse }) {
  const accounts = config.account_specific.map((a) => a.username);
  return (
    <>
      <AccountInfo twoFactorEnabled={config.two_factor_enabled} />
      <SessionsPanel />
      <Preferences config={config} />
      <TelegramPanel />
      <HashrateAlertsPanel config={config} />
      <Panel
        title="Mining accounts"
        description="Each account is a separate mining login (account.worker) with its own balances, keys and payout settings."
        testId="accounts-panel"
      >
        <div className="space-y-4">
          {config.account_specific.map((settings) => (
            <AccountCard
              key={settings.username}
              settings={settings}
              otherAccounts={accounts.filter((name) => name !== settings.username)}
            />
          ))}
        </div>
        <CreateAccount />
      </Panel>
    </>
  );
}

/** The button beside the 2FA status: it opens the dialog that turns 2FA the other way. */
const TWO_FACTOR_SWITCH = {
  enable: { modal: 'enable', label: 'Enable 2FA', testId: 'enable-2fa', className: primaryButtonClass },
  disable: { modal: 'disable', label: 'Disable 2FA', testId: 'disable-2fa', className: secondaryButtonClass },
} as const;

function AccountInfo({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  const info = useUserInfo();
  const [modal, setModal] = useState<'enable' | 'disable' | null>(null);
  const twoFactor = twoFactorEnabled ? TWO_FACTOR_SWITCH.disable : TWO_FACTOR_SWITCH.enable;
  return (
    <Panel title="Account info" testId="account-info">
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Email</dt>
          <dd data-testid="account-email" className="mt-1 font-medium break-all text-slate-900 dark:text-white">
            {info.data?.email ?? '…'}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Two-factor authentication</dt>
          <dd className="mt-1 flex flex-wrap items-center gap-3">
            <span data-testid="2fa-status" className="font-medium text-slate-900 dark:text-white">
              {twoFactorEnabled ? 'Enabled' : 'Disabled'}
            </span>
            <button
              type="button"
              data-testid={twoFactor.testId}
              className={twoFactor.className}
              onClick={() => setModal(twoFactor.modal)}
            >
              {twoFactor.label}
            </button>
          </dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
        Have a coupon?{' '}
        <Link to="/coupon" className={linkClass}>
          Redeem it here
        </Link>
        .
      </p>
      {modal === 'enable' && <EnableTwoFactorModal onClose={() => setModal(null)} />}
      {modal === 'disable' && <DisableTwoFactorModal onClose={() => setModal(null)} />}
    </Panel>
  );
}

function Preferences({ config }: { config: UserConfigResponse }) {
  // The switches start from the server's values and are saved together.
  const [toggles, setToggles] = useState<Toggles>(() => togglesFromConfig(config));
  // Linking a Telegram chat turns its notifications on at the server: the switch follows, so saving
  // the other switches does not turn them off again. (After a save the value is already the same.)
  const telegramOnServer = config.telegram_notifications;
  useEffect(() => {
    setToggles((current) => ({ ...current, telegramNotifications: telegramOnServer }));
  }, [telegramOnServer]);
  // "Telegram only" means something only with a linked chat (the Telegram panel's read, shared).
  const chatLinked = useTelegram().data?.linked ?? false;
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const queryClient = useQueryClient();
  const set = (change: Partial<Toggles>) => {
    setToggles((current) => ({ ...current, ...change }));
    setMessage({});
  };
  /** A switch's state and its setter, as the Toggle's props. */
  const bind = (key: Exclude<keyof Toggles, 'offlineWindow'>) => ({
    checked: toggles[key],
    onChange: (on: boolean) => set({ [key]: on }),
  });
  const field = draftFields(toggles, set);

  const mutation = useMutation({
    mutationFn: updateUserConfig,
    onSuccess: () => {
      setMessage({ success: MESSAGES.settingsSaved });
      void queryClient.invalidateQueries({ queryKey: queryKeys.config });
    },
    onError: (failure) => setMessage({ error: serverErrorText(failure, MESSAGES.settingsFailed) }),
  });

  return (
    <Panel title="Notifications and privacy" testId="preferences">
      <div className="divide-y divide-slate-200 dark:divide-slate-800">
        <Toggle
          label="Monthly reports"
          description="Last month's signed PDF statement of each of your accounts by e-mail, in the first days of each month."
          {...bind('sendMonthlyReports')}
          testId="toggle-monthly-reports"
        />
        <Toggle
          label="Offline worker alerts"
          description="A message when one of your workers stops sending shares, and one when it is back: by e-mail, and in your Telegram chat when linked."
          {...bind('offlineWorkerNotification')}
          testId="toggle-offline-workers"
        />
        <TextField
          label="Offline after (minutes)"
          hint="Empty: automatic — ten of the worker's usual intervals between shares, 10 minutes to 24 hours, so a small rig is not reported for a normal pause. Or whole minutes from 5 to 10080."
          inputMode="numeric"
          placeholder="Automatic"
          {...field('offlineWindow')}
          className="py-3"
          data-testid="offline-window"
        />
        <Toggle
          label="Telegram notifications"
          description="Offline-worker alerts (when on) and payout notices in your linked Telegram chat (below)."
          {...bind('telegramNotifications')}
          testId="toggle-telegram"
        />
        {chatLinked && (
          <Toggle
            label="Offline alerts on Telegram only"
            description="No alert e-mails while the alerts go to your linked Telegram chat. If the chat is unlinked, Telegram notifications are off, or Telegram does not deliver an alert within minutes, it comes by e-mail."
            {...bind('alertsTelegramOnly')}
            testId="toggle-alerts-telegram-only"
          />
        )}
        <Toggle
          label="Show my username in public lists"
          description="Your account names appear in the pool's top hasher lists. Off: you are listed anonymously."
          {...bind('showInPublicLists')}
          testId="toggle-public-lists"
        />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <PendingButton
          data-testid="save-preferences"
          onClick={() => {
            const problem = preferencesProblem(toggles);
            if (problem) setMessage({ error: problem });
            else mutation.mutate(configUpdateForm(toggles));
          }}
          pending={mutation.isPending}
          label="Save"
          pendingLabel="Saving…"
        />
        <div className="min-w-0 flex-1">
          <FormMessage error={message.error} success={message.success} />
        </div>
      </div>
    </Panel>
  );
}

function CreateAccount() {
  const [name, setName] = useState('');
  const mutation = useMutation({
    mutationFn: createAccount,
    // Account creation reloads the page.
    onSuccess: () => window.location.reload(),
  });
  const submit = () => {
    const username = newAccountName(name);
    // An empty name (after trimming) sends nothing.
    if (username === null || mutation.isPending) return;
    mutation.mutate(username);
  };
  return (
    <Form
      onSubmit={submit}
      className="mt-6 border-t border-slate-200 pt-5 dark:border-slate-800"
      data-testid="create-account"
    >
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label="New account"
          name="username"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="miner02"
          className="min-w-56 flex-1"
          value={name}
          onChange={(event) => setName(event.target.value)}
          data-testid="new-account-name"
        />
        <button type="submit" className={primaryButtonClass} disabled={mutation.isPending}>
          {mutation.isPending ? 'Creating…' : 'Create account'}
        </button>
      </div>
      <div className="mt-3">
        <FormMessage error={mutation.error ? serverErrorText(mutation.error, MESSAGES.settingsFailed) : null} />
      </div>
    </Form>
  );
}
