import { useCopy } from '../../../components/CopyButton';
import { focusRing } from '../../../components/form';
import { CheckIcon, CopyIcon } from '../../../components/icons';

/**
 * A value the miner types into their mining software, shown as a button: a click copies `text` (in full, even when
 * `shown` is abbreviated) and a checkmark replaces the copy icon for 2 s (docs/website.md, Lists, refresh and copying).
 */
export function CopyText({
  text,
  shown = text,
  label,
  testId,
}: {
  text: string;
  shown?: string;
  label: string;
  testId: string;
}) {
  const { copied, copy } = useCopy(text);

  return (
    <button
      type="button"
      onClick={copy}
      data-testid={testId}
      data-copied={copied || undefined}
      title={text}
      aria-label={`${label}: ${text}. ${copied ? 'Copied' : 'Click to copy'}`}
      className={`flex w-full items-center justify-between gap-3 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 text-left font-mono text-sm text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700 ${focusRing}`}
    >
      <span className="min-w-0 truncate">{shown}</span>
      {copied ? (
        <CheckIcon className="size-4 shrink-0 text-green-600 dark:text-green-400" />
      ) : (
        <CopyIcon className="size-4 shrink-0 text-slate-500 dark:text-slate-400" />
      )}
    </button>
  );
}
