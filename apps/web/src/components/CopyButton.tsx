import { type ReactNode, useEffect, useRef, useState } from 'react';
import { focusRing } from './form';
import { CheckIcon, CopyIcon } from './icons';

/** How long the checkmark shows after a copy (docs/website.md, Lists, refresh and copying). */
export const COPY_CONFIRMATION_MS = 2000;

/**
 * Copying to the clipboard with the site's confirmation: `copied` is true for 2 s after a copy, for a checkmark in
 * place of the copy icon. Failures are only logged (docs/website.md, Forms and messages); the text stays on screen to
 * copy by hand.
 */
function useCopy(text: string): { copied: boolean; copy: () => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    } catch (error) {
      console.warn('Could not copy to the clipboard:', error);
    }
  };
  return { copied, copy };
}

const boxed =
  'size-9 rounded-lg border border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800';
/** Beside an address or txid in a table row: no frame, so a row of them stays quiet. */
const inline =
  'size-7 rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100';

/**
 * A button that copies `text` when clicked. `children` draws it, told whether a copy has just happened (see
 * `CopyStateIcon`); `data-copied` marks those 2 s for tests.
 */
export function CopyingButton({
  text,
  testId,
  title,
  label,
  className,
  children,
}: {
  text: string;
  testId?: string;
  title: string;
  label: (copied: boolean) => string;
  className: string;
  children: (copied: boolean) => ReactNode;
}) {
  const { copied, copy } = useCopy(text);
  return (
    <button
      type="button"
      onClick={copy}
      data-testid={testId}
      data-copied={copied || undefined}
      aria-label={label(copied)}
      title={title}
      className={`${className} ${focusRing}`}
    >
      {children(copied)}
    </button>
  );
}

/** The copy icon, or a green checkmark while a copy is confirmed. */
export function CopyStateIcon({ copied, idleClassName = '' }: { copied: boolean; idleClassName?: string }) {
  return copied ? (
    <CheckIcon className="size-4 shrink-0 text-green-600 dark:text-green-400" />
  ) : (
    <CopyIcon className={`size-4 shrink-0 ${idleClassName}`} />
  );
}

/** Copies `text` to the clipboard; a checkmark replaces the icon for 2 s. */
export function CopyButton({
  text,
  label,
  testId,
  compact = false,
}: {
  text: string;
  label: string;
  testId?: string;
  compact?: boolean;
}) {
  return (
    <CopyingButton
      text={text}
      testId={testId}
      title={label}
      label={(copied) => (copied ? `${label}: copied` : label)}
      className={`inline-flex shrink-0 items-center justify-center ${compact ? inline : boxed}`}
    >
      {(copied) => <CopyStateIcon copied={copied} />}
    </CopyingButton>
  );
}
