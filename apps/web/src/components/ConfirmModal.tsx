import type { ReactNode } from 'react';
import { DialogButtons, dangerButtonClass, FormMessage, PendingButton, primaryButtonClass } from './form';
import { Modal } from './Modal';

/**
 * "Are you sure?" before an action that cannot be undone (account settings: new keys, deleting an account; the
 * dashboard: removing workers). Cancel, Escape and the backdrop close it without doing anything.
 */
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
        <DialogButtons onClose={onClose}>
          <PendingButton
            data-testid="confirm"
            className={danger ? dangerButtonClass : primaryButtonClass}
            pending={pending}
            label={confirmLabel}
            pendingLabel={pendingLabel}
            onClick={onConfirm}
          />
        </DialogButtons>
      </div>
    </Modal>
  );
}
