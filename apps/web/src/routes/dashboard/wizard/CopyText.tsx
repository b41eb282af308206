import { CopyingButton, CopyStateIcon } from '../../../components/CopyButton';

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
  return (
    <CopyingButton
      text={text}
      testId={testId}
      title={text}
      label={(copied) => `${label}: ${text}. ${copied ? 'Copied' : 'Click to copy'}`}
      className="flex w-full items-center justify-between gap-3 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 text-left font-mono text-sm text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
    >
      {(copied) => (
        <>
          <span className="min-w-0 truncate">{shown}</span>
          <CopyStateIcon copied={copied} idleClassName="text-slate-500 dark:text-slate-400" />
        </>
      )}
    </CopyingButton>
  );
}
