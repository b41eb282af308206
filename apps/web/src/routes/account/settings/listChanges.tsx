import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ComponentProps, type ReactNode, useState } from 'react';
import { serverErrorText } from '../../../api/errors';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { type Column, DataTable } from '../../../components/DataTable';
import { secondaryButtonClass } from '../../../components/form';
import { LIST_TABLE } from './settings';

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

/** The question ConfirmModal asks about one row: its title, labels, test id and text (children). */
type RemovalQuestion = Pick<
  ComponentProps<typeof ConfirmModal>,
  'title' | 'confirmLabel' | 'pendingLabel' | 'testId' | 'children'
>;

/**
 * A list of Settings (sessions, watcher links, hashrate alerts) in its compact table, a row per item keyed by its id,
 * whose rows go after one more question: `columns` get the `ask` of a row's button, `question` words the red question
 * for that row. Confirm removes the row (`remove`) and reads the list again; closing forgets the question and its
 * failure, which `failed` words when the server gave no reason.
 */
export function RemovableList<Row extends { id: string }>({
  list,
  remove,
  failed,
  columns,
  question,
  className = LIST_TABLE.className,
  ...table
}: {
  list: QueryKey;
  remove: (id: string) => Promise<unknown>;
  failed: string;
  columns: (ask: (row: Row) => void) => Column<Row>[];
  question: (row: Row) => RemovalQuestion;
  testId: string;
  rows: readonly Row[];
  rowTestId: string;
  empty?: ReactNode;
  className?: string;
}) {
  const [row, setRow] = useState<Row | null>(null);
  const removal = useListChange(list, remove, () => setRow(null));
  return (
    <>
      <DataTable<Row>
        columns={columns(setRow)}
        rowKey={(item) => item.id}
        {...LIST_TABLE}
        className={className}
        {...table}
      />
      {row && (
        <ConfirmModal
          danger
          pending={removal.isPending}
          error={removal.error ? serverErrorText(removal.error, failed) : null}
          onConfirm={() => removal.mutate(row.id)}
          onClose={() => {
            removal.reset();
            setRow(null);
          }}
          {...question(row)}
        />
      )}
    </>
  );
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
