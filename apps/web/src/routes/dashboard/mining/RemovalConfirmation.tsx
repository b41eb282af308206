import { serverErrorText } from '../../../api/errors';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { MESSAGES } from '../messages';
import type { RemovalQuestion } from './removal';

/** 'Remove …?' before a removal: Cancel removes nothing; the removal's failure is shown in the dialog. */
export function RemovalConfirmation({
  question,
  removal,
  onConfirm,
  onClose,
}: {
  question: RemovalQuestion;
  removal: { isPending: boolean; error: Error | null };
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmModal
      title={question.title}
      confirmLabel="Remove"
      pendingLabel="Removing…"
      danger
      pending={removal.isPending}
      error={removal.error ? serverErrorText(removal.error, MESSAGES.removeFailed) : null}
      onConfirm={onConfirm}
      onClose={onClose}
      testId="remove-workers-modal"
    >
      <p>{question.text}</p>
    </ConfirmModal>
  );
}
