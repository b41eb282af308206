/**
 * Loading and failure of one block of a page (a public page's, a dashboard tab's, a modal's). The failure names the reason (the query client
 * has already logged it) and says what happens next, so an empty block never reads as "no data".
 */
export function LoadState({
  isPending,
  error,
  what,
  retry,
  testId,
}: {
  isPending: boolean;
  error: Error | null;
  what: string;
  /** What happens next, e.g. "Trying again every 30 seconds." Default: reload the page. */
  retry?: string;
  testId?: string;
}) {
  if (isPending) {
    return (
      <p
        role="status"
        data-testid={testId && `${testId}-loading`}
        className="py-6 text-center text-sm text-slate-500 dark:text-slate-400"
      >
        Loading {what}…
      </p>
    );
  }
  if (error) {
    return (
      <p
        role="alert"
        data-testid={testId && `${testId}-error`}
        className="py-6 text-center text-sm text-red-700 dark:text-red-400"
      >
        {`The ${what} could not be loaded: ${error.message.replace(/\.$/, '')}. ${retry ?? 'Please reload the page to try again.'}`}
      </p>
    );
  }
  return null;
}
