import { CloseIcon } from '../../components/icons';
import { WarningIcon } from './icons';

/**
 * The missing-payout banner (docs/dashboard.md, The screens): names the coins without a payout address; its button
 * opens Payout Settings on the Revenue tab; it can be closed (until the check runs again).
 */
export function MissingPayoutBanner({
  text,
  onConfigure,
  onClose,
}: {
  text: string;
  onConfigure: () => void;
  onClose: () => void;
}) {
  return (
    <div
      role="alert"
      data-testid="missing-payout-banner"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200"
    >
      <WarningIcon className="size-5 shrink-0" />
      <p className="min-w-48 flex-1" data-testid="missing-payout-text">
        {text}
      </p>
      <button
        type="button"
        data-testid="missing-payout-configure"
        onClick={onConfigure}
        className="rounded-lg bg-amber-500 px-3 py-1.5 font-semibold text-slate-950 hover:bg-amber-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-600"
      >
        Configure payout addresses
      </button>
      <button
        type="button"
        aria-label="Close"
        data-testid="missing-payout-close"
        onClick={onClose}
        className="inline-flex size-8 items-center justify-center rounded-lg hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-amber-600 dark:hover:bg-amber-900/40"
      >
        <CloseIcon className="size-5" />
      </button>
    </div>
  );
}
