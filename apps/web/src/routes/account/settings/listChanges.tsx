import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { serverErrorText } from '../../../api/errors';
import { secondaryButtonClass } from '../../../components/form';

/** A change to one of the lists in Settings: once the server has made it, `done` runs and the list is read again. */
export function useListChange<V>(list: QueryKey, change: (value: V) => Promise<unknown>, done: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => {
      done();
      void queryClient.invalidateQueries({ queryKey: list });
    },
  });
}

/**
 * A row of a list that goes after one more question: `row` is the one asked about (null while none is), `ask` asks,
 * and `confirm` are the question's ConfirmModal props: Confirm removes the row (`remove`) and reads the list again,
 * closing forgets the question and its failure, which `failed` words when the server gave no reason.
 */
export function useRowRemoval<Row extends { id: string }>(
  list: QueryKey,
  remove: (id: string) => Promise<unknown>,
  failed: string,
) {
  const [row, setRow] = useState<Row | null>(null);
  const removal = useListChange(list, remove, () => setRow(null));
  return {
    row,
    ask: setRow,
    confirm: {
      pending: removal.isPending,
      error: removal.error ? serverErrorText(removal.error, failed) : null,
      onConfirm: () => {
        if (row) removal.mutate(row.id);
      },
      onClose: () => {
        removal.reset();
        setRow(null);
      },
    },
  };
}

/** A row's button that asks whether the row should go (Delete, Revoke): red, like the question's Confirm. */
export function RemoveRowButton({ label, testId, onClick }: { label: string; testId: string; onClick: () => void }) {
  return (
    <button
      type="button"
      data-testid={testId}
      className={`${secondaryButtonClass} text-red-700 dark:text-red-400`}
      onClick={onClick}
    >
      {label}
    </button>
  );
}
