import type { ConvertResponse } from '@lodestone/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { convertBalance } from '../../../api/dashboard';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { DialogButtons, Form, FormMessage, PendingButton } from '../../../components/form';
import { Modal } from '../../../components/Modal';
import { MESSAGES } from '../messages';
import { useCoins } from '../queries';
import { targetCoins } from './changeCoin';
import { CoinSearch } from './formParts';

/**
 * Change Coin (docs/dashboard.md, The screens; titled 'Conversion Settings' as the product names it): the
 * whole balance of one coin becomes another coin at current prices. The target is picked from a
 * searchable list of the payout coins, the current coin left out.
 */
export function ChangeCoinModal({
  account,
  baseCoin,
  onClose,
}: {
  account: string;
  baseCoin: string;
  onClose: () => void;
}) {
  const coins = useCoins();
  const [query, setQuery] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const queryClient = useQueryClient();

  const mutation = useMutation({
    mutationFn: (to: string) => convertBalance(account, baseCoin, to),
    onSuccess: (answer: ConvertResponse) => {
      setMessage({
        success: `Converted ${answer.base_amount} ${answer.base_coin} into ${answer.target_amount} ${answer.target_coin}.`,
      });
      // Balances (and their warnings) changed: every figure of this account is asked for again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard({ kind: 'user', account }) });
    },
    onError: (error) => setMessage({ error: serverErrorText(error, MESSAGES.conversionFailed) }),
  });

  const submit = () => {
    if (mutation.isPending) return;
    if (target === null) {
      setMessage({ error: MESSAGES.noTargetCoin });
      return;
    }
    setMessage({});
    mutation.mutate(target);
  };

  const options = coins.data ? targetCoins(coins.data, baseCoin, query) : [];
  const done = mutation.isSuccess;
  return (
    <Modal title="Conversion Settings" onClose={onClose} testId="change-coin-modal">
      <Form onSubmit={submit} className="space-y-4 text-sm">
        <p className="text-slate-600 dark:text-slate-400">
          Convert your whole <strong className="text-slate-900 dark:text-white">{baseCoin}</strong> balance into another
          coin at current prices. The pool charges no conversion fee.
        </p>
        {!done && (
          <>
            <CoinSearch label="Target coin" query={query} onQuery={setQuery} testId="change-coin-search" />
            {coins.isPending && <p role="status">Loading coins…</p>}
            {coins.error && <FormMessage error={coins.error.message} />}
            <fieldset>
              <legend className="sr-only">Target coin</legend>
              <ul className="max-h-64 space-y-1 overflow-y-auto" data-testid="change-coin-options">
                {coins.data && options.length === 0 && (
                  <li className="py-2 text-slate-500 dark:text-slate-400">No coin matches.</li>
                )}
                {options.map((ticker) => (
                  <li key={ticker}>
                    <label
                      className={`flex cursor-pointer items-center gap-3 rounded-lg border px-3 py-2 ${
                        target === ticker
                          ? 'border-amber-500 bg-amber-50 dark:bg-amber-500/10'
                          : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800'
                      }`}
                    >
                      <input
                        type="radio"
                        name="target_coin"
                        value={ticker}
                        checked={target === ticker}
                        onChange={() => setTarget(ticker)}
                        className="accent-amber-500"
                      />
                      <span className="font-semibold">{ticker}</span>
                      <span className="text-slate-500 dark:text-slate-400">{coins.data?.[ticker]?.name}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          </>
        )}
        <FormMessage error={message.error} success={message.success} />
        <DialogButtons onClose={onClose} closeLabel={done ? 'Close' : 'Cancel'}>
          {!done && (
            <PendingButton
              type="submit"
              pending={mutation.isPending}
              label="Convert"
              pendingLabel="Converting…"
              data-testid="change-coin-convert"
            />
          )}
        </DialogButtons>
      </Form>
    </Modal>
  );
}
