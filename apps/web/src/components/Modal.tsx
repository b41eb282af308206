import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CloseIcon } from './icons';

/**
 * A modal dialog on the native <dialog> element: the browser keeps focus inside it, Escape closes it,
 * and the page behind it is inert. Rendered only while open; `onClose` is called for Escape, the
 * close button and a press on the backdrop.
 */
export function Modal({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    // A click whose target is the <dialog> itself landed on the backdrop (keyboard users have Escape).
    const onClick = (event: MouseEvent) => {
      if (event.target === element) close.current();
    };
    element.addEventListener('cancel', onCancel);
    element.addEventListener('click', onClick);
    return () => {
      element.removeEventListener('cancel', onCancel);
      element.removeEventListener('click', onClick);
      if (element.open) element.close();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      data-testid={testId}
      aria-labelledby={titleId}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3 dark:border-slate-700">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <button
          type="button"
          onClick={() => close.current()}
          aria-label="Close"
          className="inline-flex size-8 items-center justify-center rounded-lg hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:bg-slate-800"
        >
          <CloseIcon className="size-5" />
        </button>
      </div>
      <div className="px-5 py-4">{children}</div>
    </dialog>
  );
}
