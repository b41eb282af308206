import type { AlgorithmKey } from '@lodestone/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { labelWorkers } from '../../../api/dashboard';
import { serverErrorText } from '../../../api/errors';
import {
  DialogButtons,
  Form,
  FormMessage,
  PendingButton,
  secondaryButtonClass,
  TextField,
} from '../../../components/form';
import { Modal } from '../../../components/Modal';
import { MESSAGES } from '../messages';
import { type ChosenWorker, labelButton, sharedLabel, workersCount } from './workerSelection';

/**
 * The miner's bulk actions on the selected workers (docs/dashboard.md, Worker groups): how many are selected, "select
 * all N matching" for the current filters and search, clearing, labelling and removing them.
 */
export function SelectionBar({
  selected,
  matching,
  onSelectMatching,
  onClear,
  onLabel,
  onRemove,
}: {
  /** Selected workers: what the actions take. */
  selected: number;
  matching: number;
  onSelectMatching: () => void;
  onClear: () => void;
  onLabel: () => void;
  onRemove: () => void;
}) {
  return (
    <div
      className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-300"
      data-testid="selection-bar"
    >
      <span data-testid="selection-count" aria-live="polite">
        {selected === 0 ? 'No worker selected' : `${workersCount(selected)} selected`}
      </span>
      {selected < matching && (
        <button type="button" className={secondaryButtonClass} data-testid="select-matching" onClick={onSelectMatching}>
          Select all {matching.toLocaleString('en-US')} matching
        </button>
      )}
      {selected > 0 && (
        <>
          <button type="button" className={secondaryButtonClass} data-testid="clear-selection" onClick={onClear}>
            Clear selection
          </button>
          <button type="button" className={secondaryButtonClass} data-testid="label-selected" onClick={onLabel}>
            Label selected…
          </button>
          <button
            type="button"
            className={`${secondaryButtonClass} text-red-700 dark:text-red-400`}
            data-testid="remove-selected"
            onClick={onRemove}
          >
            Remove selected ({selected.toLocaleString('en-US')})
          </button>
        </>
      )}
    </div>
  );
}

/**
 * Gives the selected workers a label, their group; an empty label takes theirs off, so they group by name again. The
 * field starts with their label when they share one. The server's refusal (too long, not the account's) is shown in
 * its words and the dialog stays open.
 */
export function LabelDialog({
  account,
  algorithm,
  workers,
  onLabelled,
  onClose,
}: {
  account: string;
  algorithm: AlgorithmKey;
  workers: readonly ChosenWorker[];
  onLabelled: () => void;
  onClose: () => void;
}) {
  const [label, setLabel] = useState(() => sharedLabel(workers));
  const button = labelButton(label, workers);
  const save = useMutation({
    mutationFn: () =>
      labelWorkers(
        account,
        algorithm,
        workers.map((w) => w.id),
        label,
      ),
    onSuccess: onLabelled,
  });
  return (
    <Modal title={`Label ${workersCount(workers.length)}`} onClose={onClose} testId="label-workers-modal">
      <Form
        className="space-y-4 text-sm text-slate-700 dark:text-slate-300"
        onSubmit={() => {
          if (!button.off) save.mutate();
        }}
      >
        <TextField
          label="Label"
          data-testid="label-input"
          value={label}
          autoComplete="off"
          hint="Workers with the same label form a group. Leave it empty to take the label off: they group by their name again."
          onChange={(event) => setLabel(event.target.value)}
        />
        <FormMessage error={save.error ? serverErrorText(save.error, MESSAGES.labelFailed) : null} />
        <DialogButtons onClose={onClose}>
          <PendingButton
            type="submit"
            data-testid="label-save"
            pending={save.isPending}
            disabled={save.isPending || button.off}
            label={button.text}
            pendingLabel="Saving…"
          />
        </DialogButtons>
      </Form>
    </Modal>
  );
}
