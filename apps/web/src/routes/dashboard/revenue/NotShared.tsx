import { ApiError } from '../../../api/errors';

/**
 * A read the observer's watcher link does not cover (docs/dashboard.md, Watcher links): the server refuses it with 403
 * and says why ("This link shows mining only, not revenue."). Its words, or null for any other outcome.
 */
export function notSharedText(error: unknown): string | null {
  return error instanceof ApiError && error.status === 403 && error.fromServer ? error.message : null;
}

/** What a block shows in place of figures the link does not share: the server's reason, as a plain line. */
export function NotShared({ text, testId }: { text: string; testId: string }) {
  return (
    <p
      data-testid={testId}
      className="rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300"
    >
      {text}
    </p>
  );
}
