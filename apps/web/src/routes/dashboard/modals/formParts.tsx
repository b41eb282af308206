import type { CoinsResponse } from '@lodestone/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { FormMessage, primaryButtonClass, secondaryButtonClass, TextField } from '../../../components/form';
import { LoadState } from '../../../components/LoadState';
import { Modal } from '../../../components/Modal';
import { PlusIcon } from '../icons';
import { DASHBOARD_RETRY, useCoins } from '../queries';
import { addableCoins } from './payoutForm';

/** What the dashboard's settings modals share: the frame that loads them, searching and adding coins, the save row. */

/**
 * A settings modal of an account: its form (the children, given the coin catalogue and the account's settings) once
 * both are loaded, until then their load state, which names the modal by its title.
 */
export function CoinSettingsModal<Config>({
  title,
  testId,
  config,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  config: UseQueryResult<Config>;
  onClose: () => void;
  children: (catalogue: CoinsResponse, config: Config) => ReactNode;
}) {
  const coins = useCoins();
  return (
    <Modal title={title} onClose={onClose} testId={testId}>
      {coins.data && config.data ? (
        children(coins.data, config.data)
      ) : (
        <LoadState
          retry={DASHBOARD_RETRY}
          isPending={coins.isPending || config.isPending}
          error={coins.error ?? config.error}
          what={title.toLowerCase()}
        />
      )}
    </Modal>
  );
}

/**
 * "Add a coin": a search box and a button per coin of the catalogue that may be added (not `chosen`
 * yet, and matching the search). Choosing one clears the search. Test ids are `{testId}-coin-search`,
 * `{testId}-add-{ticker}` and `{testId}-addable` for the list.
 */
export function CoinAdder({
  testId,
  catalogue,
  chosen,
  onAdd,
}: {
  testId: string;
  catalogue: CoinsResponse;
  chosen: readonly string[];
  onAdd: (ticker: string) => void;
}) {
  const [query, setQuery] = useState('');
  const addable = addableCoins(catalogue, chosen, query);
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-3 dark:border-slate-700">
      <CoinSearch label="Add a coin" query={query} onQuery={setQuery} testId={`${testId}-coin-search`} />
      <ul className="mt-2 flex flex-wrap gap-2" data-testid={`${testId}-addable`}>
        {addable.length === 0 && <li className="text-slate-500 dark:text-slate-400">No coin to add.</li>}
        {addable.map((ticker) => (
          <li key={ticker}>
            <button
              type="button"
              className={`${secondaryButtonClass} px-3 py-1.5`}
              data-testid={`${testId}-add-${ticker}`}
              onClick={() => {
                onAdd(ticker);
                setQuery('');
              }}
            >
              <PlusIcon className="size-4" />
              <span className="sr-only">Add </span>
              {ticker}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled search box over the coin catalogue. */
export function CoinSearch({
  label,
  query,
  onQuery,
  testId,
}: {
  label: string;
  query: string;
  onQuery: (query: string) => void;
  testId: string;
}) {
  return (
    <TextField
      label={label}
      type="search"
      placeholder="Search coins"
      value={query}
      data-testid={testId}
      onChange={(event) => onQuery(event.target.value)}
    />
  );
}

/** The form's outcome message and its full-width Save button ('Saving…' while the call runs). */
export function SaveRow({
  message,
  pending,
  testId,
}: {
  message: { error?: string | undefined; success?: string | undefined };
  pending: boolean;
  testId: string;
}) {
  return (
    <>
      <FormMessage error={message.error} success={message.success} />
      <button type="submit" className={`${primaryButtonClass} w-full`} disabled={pending} data-testid={testId}>
        {pending ? 'Saving…' : 'Save'}
      </button>
    </>
  );
}
