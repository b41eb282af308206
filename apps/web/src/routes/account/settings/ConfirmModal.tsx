import type { ReactNode } from 'react';
import { dangerButtonClass, FormMessage, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { Modal } from '../../../components/Modal';

/** "Are you sure?" before an action that cannot be undone. */
export function ConfirmModal({
  title,
  children,
  confirmLabel,
  pendingLabel,
  danger = false,
  pending,
  error,
  onConfirm,
  onClose,
  testId,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  danger?: boolean;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
}) {
  return (
    <Modal title={title} onClose={onClose} testId={testId}>
      <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
        {children}
        <FormMessage error={error} />
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButtonClass} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            data-testid="confirm"
            className={danger ? dangerButtonClass : primaryButtonClass}
            disabled={pending}
            onClick={onConfirm}
          >
            {pending ? pendingLabel : confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
