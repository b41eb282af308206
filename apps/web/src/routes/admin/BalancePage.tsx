import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { getCoinList, submitBalance } from '../../api/admin';
import { queryKeys } from '../../api/queryKeys';
import { Panel } from '../../components/AccountPage';
import { AlgorithmSelector } from '../../components/AlgorithmSelector';
import {
  Form,
  FormMessage,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
  TextField,
} from '../../components/form';
import { AdminShell } from './AdminShell';
import {
  BALANCE_MESSAGES,
  type BalanceValues,
  balanceAnswerError,
  balanceFailureText,
  balanceFields,
  canSend,
  valueProblem,
} from './balance';

/**
 * Balance ('Balance Admin', docs/admin.md, The screens): adds a coin amount to an account's balance (a negative
 * value takes it away; the server refuses to go below zero). States: idle, sending, success, error.
 * After a success the form stays locked until Reactivate, so one click cannot submit twice.
 */
export default function BalancePage() {
  return (
    <AdminShell title="Balance Admin" width="max-w-xl">
      <BalanceForm />
    </AdminShell>
  );
}

const EMPTY: BalanceValues = { username: '', algorithm: 'SCRYPT', ticker: '', value: '', reason: '' };

function BalanceForm() {
  const [values, setValues] = useState<BalanceValues>(EMPTY);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [done, setDone] = useState(false);
  const algorithmId = useId();
  const coins = useQuery({
    queryKey: queryKeys.coins,
    queryFn: ({ signal }) => getCoinList(signal),
    staleTime: 60_000,
  });

  const send = useMutation({
    mutationFn: submitBalance,
    onSuccess: (answer) => {
      const error = balanceAnswerError(answer);
      if (error) return setMessage({ error });
      setMessage({ success: BALANCE_MESSAGES.success });
      setDone(true);
    },
    onError: (failure) => setMessage({ error: balanceFailureText(failure) }),
  });

  const set = (change: Partial<BalanceValues>) => {
    setValues((current) => ({ ...current, ...change }));
    if (!send.isPending) setMessage({});
  };
  const locked = send.isPending || done;

  const submit = () => {
    if (locked || !canSend(values)) return;
    const coin = coins.data?.[values.ticker];
    const problem = valueProblem(values.value, coin ? { ticker: values.ticker, decimals: coin.decimals } : undefined);
    if (problem) return setMessage({ error: problem });
    setMessage({});
    send.mutate(balanceFields(values));
  };

  const reactivate = () => {
    setMessage({});
    setDone(false);
    send.reset();
  };

  return (
    <Panel
      title="Adjust a balance"
      description="A positive value credits the account, a negative one debits it (never below zero). Every adjustment is a ledger entry and is recorded in both users' logs."
      testId="admin-balance"
    >
      <Form onSubmit={submit} className="space-y-4" data-testid="balance-form">
        <TextField
          label="Username"
          autoComplete="off"
          spellCheck={false}
          value={values.username}
          disabled={locked}
          onChange={(event) => set({ username: event.target.value })}
        />
        <div>
          <span id={algorithmId} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">
            Algorithm
          </span>
          <fieldset aria-labelledby={algorithmId} disabled={locked} className="min-w-0">
            <AlgorithmSelector
              testId="balance-algorithm"
              value={values.algorithm}
              onSelect={(algorithm) => set({ algorithm })}
            />
          </fieldset>
        </div>
        <SelectField
          label="Coin"
          value={values.ticker}
          disabled={locked}
          onChange={(event) => set({ ticker: event.target.value })}
          options={Object.keys(coins.data ?? {})}
          after={
            coins.isError && (
              <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
                {BALANCE_MESSAGES.coinsFailed}
              </p>
            )
          }
        >
          <option value="">Select coin</option>
        </SelectField>
        <TextField
          label="Value"
          type="number"
          step="0.00000001"
          inputMode="decimal"
          placeholder="Value (8 decimals)"
          value={values.value}
          disabled={locked}
          onChange={(event) => set({ value: event.target.value })}
        />
        <TextField
          label="Reason (optional)"
          autoComplete="off"
          maxLength={500}
          placeholder="Why, for the ledger and the logs"
          value={values.reason ?? ''}
          disabled={locked}
          onChange={(event) => set({ reason: event.target.value })}
        />
        <FormMessage error={message.error} success={message.success} />
        <div className="flex gap-2">
          <button type="submit" className={primaryButtonClass} disabled={locked || !canSend(values)}>
            {send.isPending ? 'Sending…' : 'Send'}
          </button>
          {done && (
            <button type="button" className={secondaryButtonClass} onClick={reactivate}>
              Reactivate
            </button>
          )}
        </div>
      </Form>
    </Panel>
  );
}
