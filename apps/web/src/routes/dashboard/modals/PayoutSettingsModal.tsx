import type { CoinInfo, CoinsResponse, PaymentConfigResponse } from '@lodestone/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { updatePaymentConfig } from '../../../api/dashboard';
import { ApiError, serverErrorText } from '../../../api/errors';
import { useUserInfo } from '../../../api/queries';
import { queryKeys } from '../../../api/queryKeys';
import { Field, Form, inputClass, secondaryButtonClass, TextField } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { formatDateTime } from '../../../lib/dates';
import { PlusIcon } from '../icons';
import { MESSAGES } from '../messages';
import { usePaymentConfig } from '../queries';
import { CoinAdder, CoinSettingsModal, SaveRow } from './formParts';
import {
  addAddressRow,
  addCoin,
  addressesChanged,
  boundsProblem,
  formFromConfig,
  formProblem,
  INTERVAL_STEP,
  type PayoutCoinForm,
  paymentForm,
  percentageTotal,
  type Reauthentication,
  removeAddressRow,
  snappedToStep,
  THRESHOLD_STEP,
  updateAddressRow,
  withCoins,
} from './payoutForm';

/**
 * Payout Settings (docs/money.md, Payout settings): per coin the threshold, the interval and the addresses with their
 * share of each payout. Saving replaces the account's payout settings as a whole.
 */
export function PayoutSettingsModal({
  account,
  add = [],
  onClose,
}: {
  account: string;
  /** Coins to start the form with, added if not set up yet (the missing-payout banner's). */
  add?: readonly string[] | undefined;
  onClose: () => void;
}) {
  return (
    <CoinSettingsModal
      title="Payout Settings"
      testId="payout-modal"
      config={usePaymentConfig(account)}
      onClose={onClose}
    >
      {(catalogue, config) => <PayoutForm account={account} catalogue={catalogue} config={config} add={add} />}
    </CoinSettingsModal>
  );
}

function PayoutForm({
  account,
  catalogue,
  config,
  add,
}: {
  account: string;
  catalogue: CoinsResponse;
  config: PaymentConfigResponse;
  add: readonly string[];
}) {
  // The form starts from what is stored (plus the coins it was opened for) and is edited locally until saved.
  const [coins, setCoins] = useState<PayoutCoinForm[]>(() => withCoins(formFromConfig(config), add, catalogue));
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const queryClient = useQueryClient();

  const edit = (next: PayoutCoinForm[]) => {
    setCoins(next);
    setMessage({});
  };

  // Changing addresses asks for the password again, and the 2FA code when 2FA is on (docs/money.md);
  // thresholds and intervals alone do not. Should the server ask for a field the form did not show
  // (user/info not answered yet), its refusal shows the field.
  const [reauth, setReauth] = useState<Reauthentication>({ password: '', code: '' });
  const info = useUserInfo();

  const mutation = useMutation({
    mutationFn: (form: FormData) => updatePaymentConfig(account, form),
    onSuccess: () => {
      setReauth({ password: '', code: '' });
      setMessage({ success: MESSAGES.payoutSaved });
      void queryClient.invalidateQueries({ queryKey: queryKeys.payment(account) });
      // Balance warnings depend on the addresses.
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard({ kind: 'user', account }) });
    },
    onError: (error) => setMessage({ error: serverErrorText(error, MESSAGES.payoutFailed) }),
  });

  const askedFor = (code: string) => mutation.error instanceof ApiError && mutation.error.code === code;
  const needsPassword = addressesChanged(config, coins) || askedFor('PASSWORD_REQUIRED');
  const needsCode = info.data?.two_factor_enabled === true || askedFor('TOTP_REQUIRED');

  const submit = () => {
    if (mutation.isPending) return;
    // Out-of-bounds thresholds and intervals are refused here, naming the bound (never clamped).
    const problem = formProblem(coins, (ticker) => catalogue[ticker]);
    if (problem) setMessage({ error: problem });
    else mutation.mutate(paymentForm(coins, needsPassword ? reauth : undefined));
  };

  const paused = config.payout_settings.filter((s) => s.paused_until !== null);

  return (
    <Form onSubmit={submit} className="space-y-5 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        A coin is paid out once its balance reaches the threshold and the interval has passed since its last payout.
        Changing an address pauses that coin's payouts for 24 hours.
      </p>
      {paused.length > 0 && (
        <p
          data-testid="payout-paused"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-800 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-300"
        >
          {paused.map((s) => `${s.ticker} payouts are paused until ${formatDateTime(s.paused_until ?? '')}`).join('. ')}
          .
        </p>
      )}
      {coins.length === 0 && <p className="text-slate-500 dark:text-slate-400">No payout coin yet. Add one below.</p>}
      {coins.map((coin) => {
        const info = catalogue[coin.ticker];
        return info ? (
          <CoinFieldset
            key={coin.ticker}
            coin={coin}
            info={info}
            onChange={(change) => edit(coins.map((c) => (c.ticker === coin.ticker ? { ...c, ...change } : c)))}
            onAddRow={() => edit(addAddressRow(coins, coin.ticker))}
            onRemoveRow={(index) => edit(removeAddressRow(coins, coin.ticker, index))}
            onRowChange={(index, change) => edit(updateAddressRow(coins, coin.ticker, index, change))}
          />
        ) : null;
      })}

      <CoinAdder
        testId="payout"
        catalogue={catalogue}
        chosen={coins.map((c) => c.ticker)}
        onAdd={(ticker) => {
          const coinInfo = catalogue[ticker];
          if (coinInfo) edit(addCoin(coins, ticker, coinInfo));
        }}
      />

      {needsPassword && (
        <fieldset data-testid="payout-reauth" className="space-y-3">
          <legend className="mb-2 text-slate-600 dark:text-slate-400">
            {needsCode
              ? 'Changing payout addresses needs your password and the code from your authenticator app.'
              : 'Changing payout addresses needs your password.'}
          </legend>
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={reauth.password}
            onChange={(event) => setReauth({ ...reauth, password: event.target.value })}
            data-testid="payout-password"
          />
          {needsCode && (
            <TextField
              label="2FA code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="123456"
              maxLength={6}
              value={reauth.code}
              onChange={(event) => setReauth({ ...reauth, code: event.target.value })}
              data-testid="payout-code"
            />
          )}
        </fieldset>
      )}

      <SaveRow message={message} pending={mutation.isPending} testId="payout-save" />
    </Form>
  );
}

function CoinFieldset({
  coin,
  info,
  onChange,
  onAddRow,
  onRemoveRow,
  onRowChange,
}: {
  coin: PayoutCoinForm;
  info: CoinInfo;
  onChange: (change: Partial<PayoutCoinForm>) => void;
  onAddRow: () => void;
  onRemoveRow: (index: number) => void;
  onRowChange: (index: number, change: { address?: string; percentage?: number }) => void;
}) {
  const total = percentageTotal(coin.addresses);
  const thresholdProblem = boundsProblem(coin.ticker, 'threshold', coin.threshold, info);
  const intervalProblem = boundsProblem(coin.ticker, 'interval', coin.interval, info);
  return (
    <fieldset
      data-testid={`payout-coin-${coin.ticker}`}
      className="rounded-xl border border-slate-200 p-3 dark:border-slate-700"
    >
      <legend className="px-1 font-semibold text-slate-900 dark:text-white">
        {coin.ticker} <span className="font-normal text-slate-500 dark:text-slate-400">{info.name}</span>
      </legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <BoundedNumberField
          label={`Threshold (${coin.ticker})`}
          value={coin.threshold}
          min={info.threshold_min}
          max={info.threshold_max}
          step={THRESHOLD_STEP}
          problem={thresholdProblem}
          testId="payout-threshold"
          bounds={`${info.threshold_min} to ${info.threshold_max}`}
          onValue={(threshold) => onChange({ threshold })}
        />
        <BoundedNumberField
          label="Interval (hours)"
          value={coin.interval}
          min={String(info.interval_min)}
          max={String(info.interval_max)}
          step={INTERVAL_STEP}
          problem={intervalProblem}
          testId="payout-interval"
          bounds={`${info.interval_min} to ${info.interval_max} hours`}
          onValue={(interval) => onChange({ interval })}
        />
      </div>
      {/* USDC payouts use the Ethereum network; any token on another coin's chain says so. */}
      {info.network === 'ethereum' && coin.ticker !== 'ETH' && (
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          {coin.ticker} is paid on the Ethereum network: enter an Ethereum address.
        </p>
      )}
      <ul className="mt-3 space-y-3">
        {coin.addresses.map((row, index) => (
          // Address rows have no identity of their own; the index is stable while a row is edited.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <li key={index} data-testid="payout-address-row" className="space-y-1.5">
            <div className="flex items-center gap-2">
              <input
                aria-label={`${coin.ticker} address ${index + 1}`}
                className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
                autoCapitalize="none"
                autoComplete="off"
                spellCheck={false}
                placeholder={`${coin.ticker} address`}
                value={row.address}
                data-testid="payout-address"
                onChange={(event) => onRowChange(index, { address: event.target.value })}
              />
              <button
                type="button"
                aria-label={`Remove ${coin.ticker} address ${index + 1}`}
                title="Remove this address"
                className={`${secondaryButtonClass} px-2`}
                data-testid="payout-remove-address"
                onClick={() => onRemoveRow(index)}
              >
                <TrashIcon className="size-4" />
              </button>
            </div>
            <div className="flex items-center gap-3">
              <input
                type="range"
                min={0}
                max={100}
                step={1}
                aria-label={`${coin.ticker} address ${index + 1} percentage`}
                className="flex-1 accent-amber-500"
                value={row.percentage}
                data-testid="payout-percentage"
                onChange={(event) => onRowChange(index, { percentage: Number(event.target.value) })}
              />
              <output className="w-12 text-right tabular-nums">{row.percentage}%</output>
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex items-center justify-between gap-2">
        <button type="button" className={`${secondaryButtonClass} px-3 py-1.5`} onClick={onAddRow}>
          <PlusIcon className="size-4" />
          Add address
        </button>
        <span
          className={
            total === 100 ? 'text-slate-500 dark:text-slate-400' : 'font-semibold text-red-700 dark:text-red-400'
          }
        >
          Total {total}%
        </span>
      </div>
    </fieldset>
  );
}

/** A number between two bounds: stepped onto the grid when the field is left, the bounds (or the problem) under it. */
function BoundedNumberField({
  label,
  value,
  min,
  max,
  step,
  problem,
  testId,
  bounds,
  onValue,
}: {
  label: string;
  value: string;
  min: string;
  max: string;
  step: string;
  problem: string | null;
  testId: string;
  bounds: string;
  onValue: (value: string) => void;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <>
          <input
            id={id}
            type="number"
            inputMode="decimal"
            min={min}
            max={max}
            step={step}
            className={inputClass}
            value={value}
            data-testid={testId}
            aria-describedby={`${id}-hint`}
            onChange={(event) => onValue(event.target.value)}
            aria-invalid={problem !== null}
            onBlur={() => onValue(snappedToStep(value, min, max, step))}
          />
          <BoundHint id={`${id}-hint`} problem={problem} testId={`${testId}-problem`}>
            {bounds}
          </BoundHint>
        </>
      )}
    </Field>
  );
}

/** The allowed range under a field, or, in its place, why the typed value cannot be saved. */
function BoundHint({
  id,
  problem,
  testId,
  children,
}: {
  id: string;
  problem: string | null;
  testId: string;
  children: ReactNode;
}) {
  return problem ? (
    <p id={id} data-testid={testId} className="mt-1 text-xs text-red-700 dark:text-red-400">
      {problem}
    </p>
  ) : (
    <p id={id} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
      {children}
    </p>
  );
}
