import { type HashrateAlert, MAX_HASHRATE_ALERTS, type UserConfigResponse } from '@lodestone/contract';
import { ALGORITHMS, type AlgorithmKey, algorithmByKey, HASHRATE_UNITS } from '@lodestone/domain';
import { useId, useState } from 'react';
import { createHashrateAlert, deleteHashrateAlert } from '../../../api/account';
import { useHashrateAlerts, useTelegram, useWorkerGroups } from '../../../api/accountQueries';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { LoadState, Panel } from '../../../components/AccountPage';
import type { Column } from '../../../components/DataTable';
import {
  Form,
  FormMessage,
  PendingButton,
  SelectField,
  secondaryButtonClass,
  TextField,
} from '../../../components/form';
import { actionsColumn } from '../../../components/tableColumns';
import { pickAccount } from '../../../lib/accounts';
import { useSelectedAccount } from '../../../state/hooks';
import { draftFields } from './draftFields';
import {
  ALERT_KIND_TEXT,
  alertChannelsText,
  emptyAlertDraft,
  groupSuggestions,
  type HashrateAlertDraft,
  hashrateAlertForm,
  hashrateAlertGroupText,
  hashrateAlertProblem,
  hashrateAlertStateText,
  hashrateAlertText,
  machineUnit,
} from './hashrateAlerts';
import { RemovableList, RemoveRowButton, useListChange } from './listChanges';

export const HASHRATE_ALERTS_TEXT = {
  intro:
    'Beside the offline alert: a message when the hashrate of an account, or of one group of its workers, falls below a bar, or when fewer of its workers are online, and one when it is back. A drop counts only once the shares make it certain, so share luck never sets one off; a small rig is judged over hours.',
  empty: 'No hashrate alerts yet.',
  noAccount: 'You have no mining account yet.',
  groupHint:
    'Empty: the whole account. A group is a worker label, or a name prefix such as rack1-. A group without workers is not judged until it has some.',
  createFailed: 'Could not add the alert. Please try again.',
  deleteFailed: 'Could not delete the alert. Please try again.',
} as const;

/**
 * Hashrate alerts in Settings (docs/notifications.md, Hashrate alerts) for one account — the dashboard's selected one
 * unless another is chosen here: where the alerts go, the rules with their state, Delete after one more question,
 * and a form for a new rule.
 */
export function HashrateAlertsPanel({ config }: { config: UserConfigResponse }) {
  const accounts = config.account_specific.map((a) => a.username);
  const [selected] = useSelectedAccount();
  const [chosen, setChosen] = useState<string | null>(null);
  const account = pickAccount(accounts, chosen, selected);
  const linked = useTelegram().data?.linked ?? false;
  const channels = alertChannelsText({
    telegramNotifications: config.telegram_notifications,
    telegramLinked: linked,
    telegramOnly: config.offline_worker_telegram_only,
  });
  return (
    <Panel
      title="Hashrate alerts"
      description={HASHRATE_ALERTS_TEXT.intro}
      testId="hashrate-alerts-panel"
      actions={
        accounts.length > 1 && account !== null ? (
          <SelectField
            label="Account"
            value={account}
            onChange={(event) => setChosen(event.target.value)}
            data-testid="hashrate-alerts-account"
            options={accounts}
          />
        ) : undefined
      }
    >
      <p data-testid="hashrate-alerts-channels" className="text-sm text-slate-600 dark:text-slate-400">
        {channels}
      </p>
      {account === null ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">{HASHRATE_ALERTS_TEXT.noAccount}</p>
      ) : (
        <AccountAlerts key={account} account={account} />
      )}
    </Panel>
  );
}

function AccountAlerts({ account }: { account: string }) {
  const alerts = useHashrateAlerts(account);
  return (
    <>
      {alerts.data ? (
        <AlertList account={account} alerts={alerts.data.alerts} />
      ) : (
        <LoadState isPending={alerts.isPending} error={alerts.error} />
      )}
      <CreateAlert account={account} />
    </>
  );
}

function AlertList({ account, alerts }: { account: string; alerts: readonly HashrateAlert[] }) {
  return (
    <RemovableList
      list={queryKeys.hashrateAlerts(account)}
      remove={(id) => deleteHashrateAlert(account, id)}
      failed={HASHRATE_ALERTS_TEXT.deleteFailed}
      testId="hashrate-alert-table"
      columns={columns}
      rows={alerts}
      rowTestId="hashrate-alert-row"
      empty={HASHRATE_ALERTS_TEXT.empty}
      className="mt-3"
      question={(deleting) => ({
        title: 'Delete this alert?',
        confirmLabel: 'Delete',
        pendingLabel: 'Deleting…',
        testId: 'hashrate-alert-delete-modal',
        children: (
          <p>
            {algorithmName(deleting.algorithm)}: {hashrateAlertText(deleting)} ({hashrateAlertGroupText(deleting)}). No
            more messages come for it, not even when it recovers.
          </p>
        ),
      })}
    />
  );
}

const algorithmName = (key: AlgorithmKey) => algorithmByKey(key)?.name ?? key;

/** On a phone each rule is a card headed by what it watches, Delete at the end. */
function columns(onDelete: (alert: HashrateAlert) => void): Column<HashrateAlert>[] {
  return [
    {
      label: 'Alert',
      phone: 'primary',
      rowHeader: true,
      testId: 'hashrate-alert-what',
      cellClassName: 'text-slate-900 dark:text-white',
      cell: (alert) => <span className="whitespace-normal">{hashrateAlertText(alert)}</span>,
    },
    {
      label: 'Algorithm',
      testId: 'hashrate-alert-algorithm',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (alert) => algorithmName(alert.algorithm),
    },
    {
      label: 'Workers',
      testId: 'hashrate-alert-group',
      cellClassName: 'text-slate-700 dark:text-slate-300',
      cell: (alert) => (
        <span className="whitespace-normal [overflow-wrap:anywhere]">{hashrateAlertGroupText(alert)}</span>
      ),
    },
    {
      label: 'State',
      testId: 'hashrate-alert-state',
      cell: (alert) =>
        alert.low ? (
          <span className="font-medium text-red-700 dark:text-red-400">{hashrateAlertStateText(alert)}</span>
        ) : (
          <span className="text-green-700 dark:text-green-400">{hashrateAlertStateText(alert)}</span>
        ),
    },
    actionsColumn((alert) => (
      <RemoveRowButton label="Delete" testId="hashrate-alert-delete" onClick={() => onDelete(alert)} />
    )),
  ];
}

/** A new rule; the form's own check first, then the server's refusals (the limit of rules included) in its words. */
function CreateAlert({ account }: { account: string }) {
  const [draft, setDraft] = useState<HashrateAlertDraft>(() => emptyAlertDraft('scrypt'));
  const [problem, setProblem] = useState<string | null>(null);
  const groups = useWorkerGroups(account, draft.algorithm);
  const create = useListChange(
    queryKeys.hashrateAlerts(account),
    (form: FormData) => createHashrateAlert(account, form),
    () => setDraft((current) => ({ ...emptyAlertDraft(current.algorithm), kind: current.kind })),
  );
  const change = (fields: Partial<HashrateAlertDraft>) => {
    setDraft((current) => ({ ...current, ...fields }));
    setProblem(null);
  };
  const field = draftFields(draft, change);
  const submit = () => {
    if (create.isPending) return;
    const found = hashrateAlertProblem(draft);
    setProblem(found);
    if (found === null) create.mutate(hashrateAlertForm(draft));
    else create.reset();
  };
  const listId = useId();
  const suggestions = groupSuggestions(groups.data ?? []);
  const error = problem ?? (create.error ? serverErrorText(create.error, HASHRATE_ALERTS_TEXT.createFailed) : null);
  return (
    <Form
      onSubmit={submit}
      className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800"
      data-testid="hashrate-alert-create"
    >
      <h3 className="text-sm font-semibold text-slate-900 dark:text-white">
        New alert <span className="font-normal text-slate-500 dark:text-slate-400">(up to {MAX_HASHRATE_ALERTS})</span>
      </h3>
      <div className="mt-2 flex flex-wrap items-end gap-3">
        <SelectField
          label="Algorithm"
          name="algorithm"
          className="min-w-36"
          value={draft.algorithm}
          onChange={(event) => {
            const algorithm = event.target.value as AlgorithmKey;
            change({ algorithm, unit: machineUnit(algorithm) });
          }}
          data-testid="hashrate-alert-algorithm-input"
        >
          {ALGORITHMS.map((a) => (
            <option key={a.key} value={a.key}>
              {a.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Alert when"
          name="kind"
          className="min-w-64 flex-1"
          {...field('kind')}
          data-testid="hashrate-alert-kind-input"
          options={ALERT_KIND_TEXT}
        />
        {draft.kind === 'fixed' && (
          <div className="flex items-end gap-2">
            <TextField
              label="Hashrate"
              name="threshold_hashrate"
              inputMode="decimal"
              placeholder="5"
              className="w-28"
              {...field('hashrate')}
              data-testid="hashrate-alert-hashrate-input"
            />
            <SelectField
              label="Unit"
              name="unit"
              className="w-28"
              {...field('unit')}
              data-testid="hashrate-alert-unit-input"
              options={HASHRATE_UNITS}
            />
          </div>
        )}
        {draft.kind === 'automatic' && (
          <TextField
            label="% of the 24 h average"
            name="threshold_percent"
            inputMode="numeric"
            className="w-40"
            {...field('percent')}
            data-testid="hashrate-alert-percent-input"
          />
        )}
        {draft.kind === 'workers' && (
          <TextField
            label="Fewest online workers"
            name="min_workers"
            inputMode="numeric"
            placeholder="10"
            className="w-44"
            {...field('minWorkers')}
            data-testid="hashrate-alert-workers-input"
          />
        )}
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <TextField
          label="Worker group (optional)"
          name="group"
          hint={HASHRATE_ALERTS_TEXT.groupHint}
          list={listId}
          autoCapitalize="none"
          spellCheck={false}
          placeholder="Whole account"
          className="min-w-56 flex-1"
          {...field('group')}
          data-testid="hashrate-alert-group-input"
        />
        <datalist id={listId} data-testid="hashrate-alert-group-suggestions">
          {suggestions.map((group) => (
            <option key={group} value={group} />
          ))}
        </datalist>
        <PendingButton
          type="submit"
          pending={create.isPending}
          label="Add alert"
          pendingLabel="Adding…"
          className={`${secondaryButtonClass} self-start sm:mt-6`}
        />
      </div>
      <div className="mt-3">
        <FormMessage error={error} />
      </div>
    </Form>
  );
}
