import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { updateRedirectConfig } from '../../../api/account';
import { useRedirectConfig } from '../../../api/accountQueries';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { LoadState } from '../../../components/AccountPage';
import { Form, FormMessage, inputClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { MESSAGES } from '../messages';
import { type RedirectRow, redirectPayload, redirectTotal, rowsFromRedirectConfig } from './settings';

/**
 * Redirect settings of one account (docs/accounts.md, Redirects): rows of account name and percentage
 * (0–100) of this account's earnings credited to that account instead.
 */
export function RedirectSettingsModal({
  account,
  suggestions,
  onClose,
}: {
  account: string;
  /** The user's other accounts, offered as names. */
  suggestions: readonly string[];
  onClose: () => void;
}) {
  const config = useRedirectConfig(account);
  return (
    <Modal title={`Redirect settings — ${account}`} onClose={onClose} testId="redirect-modal">
      {config.data ? (
        <RedirectForm
          account={account}
          initial={rowsFromRedirectConfig(config.data.redirect_settings)}
          suggestions={suggestions}
        />
      ) : (
        <LoadState isPending={config.isPending} error={config.error} />
      )}
    </Modal>
  );
}

function RedirectForm({
  account,
  initial,
  suggestions,
}: {
  account: string;
  initial: RedirectRow[];
  suggestions: readonly string[];
}) {
  const [rows, setRows] = useState<RedirectRow[]>(initial.length > 0 ? initial : [{ username: '', percentage: '' }]);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const queryClient = useQueryClient();
  const listId = useId();

  const mutation = useMutation({
    mutationFn: (form: FormData) => updateRedirectConfig(account, form),
    onSuccess: () => {
      setMessage({ success: MESSAGES.redirectSaved });
      void queryClient.invalidateQueries({ queryKey: queryKeys.redirect(account) });
    },
    // The server's reason ("An account cannot redirect to itself", "Unknown account: …") when it gave one.
    onError: (error) => setMessage({ error: serverErrorText(error, MESSAGES.redirectFailed) }),
  });

  const update = (index: number, change: Partial<RedirectRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const submit = () => {
    if (mutation.isPending) return;
    const payload = redirectPayload(rows);
    if (!payload.ok) {
      setMessage({ error: payload.error });
      return;
    }
    setMessage({});
    mutation.mutate(payload.form);
  };

  const total = redirectTotal(rows);
  return (
    <Form onSubmit={submit} className="space-y-4 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        Send a share of this account's earnings to other accounts. Percentages are 0 to 100.
      </p>
      <datalist id={listId}>
        {suggestions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ul className="space-y-2">
        {rows.map((row, index) => (
          // Rows have no identity of their own; the index is stable while a row is edited.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <li key={index} data-testid="redirect-row" className="flex items-center gap-2">
            <input
              aria-label={`Account name, row ${index + 1}`}
              className={`${inputClass} flex-1`}
              list={listId}
              autoCapitalize="none"
              spellCheck={false}
              placeholder="Account name"
              value={row.username}
              onChange={(event) => update(index, { username: event.target.value })}
            />
            <div className="relative w-28">
              <input
                aria-label={`Percentage, row ${index + 1}`}
                type="number"
                min={0}
                max={100}
                step="any"
                inputMode="decimal"
                className={`${inputClass} pr-7`}
                placeholder="0"
                value={row.percentage}
                onChange={(event) => update(index, { percentage: event.target.value })}
              />
              <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-slate-400">%</span>
            </div>
            <button
              type="button"
              aria-label={`Remove row ${index + 1}`}
              className={`${secondaryButtonClass} px-2`}
              onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
            >
              <TrashIcon className="size-4" />
            </button>
          </li>
        ))}
      </ul>
      <div className="flex items-center justify-between">
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => setRows((current) => [...current, { username: '', percentage: '' }])}
        >
          Add row
        </button>
        <span className={total > 100 ? 'font-semibold text-red-600 dark:text-red-400' : 'text-slate-500'}>
          Total {Number(total.toFixed(2))}%
        </span>
      </div>
      <FormMessage error={message.error} success={message.success} />
      <button type="submit" className={`${primaryButtonClass} w-full`} disabled={mutation.isPending}>
        {mutation.isPending ? 'Saving…' : 'Save'}
      </button>
    </Form>
  );
}
