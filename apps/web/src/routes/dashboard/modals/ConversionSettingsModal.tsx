import type { CoinsResponse, ConversionConfigResponse } from '@lodestone/contract';
import { type AlgorithmName, algorithmByName } from '@lodestone/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { updateConversionConfig } from '../../../api/dashboard';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { AlgorithmSelector } from '../../../components/AlgorithmSelector';
import { Form, inputClass, secondaryButtonClass } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { MESSAGES } from '../messages';
import { useConversionConfig } from '../queries';
import {
  addConversionCoin,
  type ConversionForm,
  clampProportion,
  conversionPayload,
  conversionTotal,
  editedList,
  formFromConversionConfig,
  setAllAlgorithms,
  withEditedList,
} from './conversionForm';
import { CoinAdder, CoinSettingsModal, SaveRow } from './formParts';

/**
 * Conversion Settings (docs/money.md, Conversion settings): which coins each algorithm's earnings are credited in, and
 * in what proportions — per algorithm, or one shared list for all of them. The algorithm chooser here only picks the
 * list to edit; the dashboard's own selection is left as it is.
 */
export function ConversionSettingsModal({
  account,
  algorithm,
  onClose,
}: {
  account: string;
  algorithm: AlgorithmName;
  onClose: () => void;
}) {
  return (
    <CoinSettingsModal
      title="Conversion Settings"
      testId="conversion-modal"
      config={useConversionConfig(account)}
      onClose={onClose}
    >
      {(catalogue, config) => (
        <ConversionFormView account={account} initialAlgorithm={algorithm} catalogue={catalogue} config={config} />
      )}
    </CoinSettingsModal>
  );
}

function ConversionFormView({
  account,
  initialAlgorithm,
  catalogue,
  config,
}: {
  account: string;
  initialAlgorithm: AlgorithmName;
  catalogue: CoinsResponse;
  config: ConversionConfigResponse;
}) {
  const [form, setForm] = useState<ConversionForm>(() => formFromConversionConfig(config));
  const [viewing, setViewing] = useState<AlgorithmName>(initialAlgorithm);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const queryClient = useQueryClient();
  const allId = useId();
  const key = algorithmByName(viewing)?.key ?? 'scrypt';
  const list = editedList(form, key);

  const edit = (next: ConversionForm) => {
    setForm(next);
    setMessage({});
  };
  const editList = (next: typeof list) => edit(withEditedList(form, key, next));

  const mutation = useMutation({
    mutationFn: (payload: { settings: unknown; all: boolean }) =>
      updateConversionConfig(account, payload.settings, payload.all),
    onSuccess: () => {
      setMessage({ success: MESSAGES.conversionSaved });
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversion(account) });
      // The balances table lists the coins the settings credit.
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard({ kind: 'user', account }) });
    },
    onError: (error) => setMessage({ error: serverErrorText(error, MESSAGES.conversionSaveFailed) }),
  });

  const submit = () => {
    if (mutation.isPending) return;
    const payload = conversionPayload(form);
    if (!payload.ok) {
      setMessage({ error: payload.error });
      return;
    }
    mutation.mutate({ settings: payload.settings, all: payload.allAlgorithms });
  };

  const total = conversionTotal(list);

  return (
    <Form onSubmit={submit} className="space-y-4 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        Your earnings are credited in these coins, in these proportions (0 to 100%, adding up to 100%). The pool charges
        no conversion fee.
      </p>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <input
            id={allId}
            type="checkbox"
            checked={form.all}
            data-testid="conversion-all"
            className="size-4 accent-amber-500"
            onChange={(event) => edit(setAllAlgorithms(form, event.target.checked, key))}
          />
          <label htmlFor={allId} className="font-medium text-slate-800 dark:text-slate-200">
            Select all algorithms
          </label>
        </div>
        {!form.all && (
          <div className="flex items-center gap-2">
            <span className="text-slate-600 dark:text-slate-400">Algorithm</span>
            <AlgorithmSelector value={viewing} onSelect={setViewing} testId="conversion-algorithm" />
          </div>
        )}
      </div>

      <ul className="space-y-2" data-testid="conversion-list">
        {list.length === 0 && <li className="text-slate-500 dark:text-slate-400">No coin selected.</li>}
        {list.map((entry, index) => (
          <li key={entry.ticker} data-testid={`conversion-${entry.ticker}`} className="flex items-center gap-2">
            <span className="w-16 font-semibold">{entry.ticker}</span>
            <div className="relative w-32">
              <input
                type="number"
                min={0}
                max={100}
                step="any"
                inputMode="decimal"
                aria-label={`${entry.ticker} proportion (percent)`}
                className={`${inputClass} pr-7`}
                value={entry.proportion}
                data-testid="conversion-proportion"
                onChange={(event) =>
                  editList(
                    list.map((e, i) =>
                      i === index ? { ...e, proportion: clampProportion(event.target.valueAsNumber) } : e,
                    ),
                  )
                }
              />
              <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-slate-400">%</span>
            </div>
            <span className="flex-1 truncate text-slate-500 dark:text-slate-400">{catalogue[entry.ticker]?.name}</span>
            <button
              type="button"
              aria-label={`Remove ${entry.ticker}`}
              className={`${secondaryButtonClass} px-2`}
              onClick={() => editList(list.filter((_, i) => i !== index))}
            >
              <TrashIcon className="size-4" />
            </button>
          </li>
        ))}
      </ul>
      <p
        className={
          total === 100 ? 'text-slate-500 dark:text-slate-400' : 'font-semibold text-red-700 dark:text-red-400'
        }
      >
        Total {total}%
      </p>

      <CoinAdder
        testId="conversion"
        catalogue={catalogue}
        chosen={list.map((e) => e.ticker)}
        onAdd={(ticker) => editList(addConversionCoin(list, ticker))}
      />

      <SaveRow message={message} pending={mutation.isPending} testId="conversion-save" />
    </Form>
  );
}
