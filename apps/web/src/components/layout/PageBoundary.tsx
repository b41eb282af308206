import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
  /** The browser said it was offline when the page failed: a page never opened here is not stored. */
  offline: boolean;
}

/**
 * Catches a page that fails to render or to load (a lazy chunk missing after a new release, or one
 * never fetched while the device is offline) and says which, instead of leaving a blank screen. The
 * layout keys it by path, so navigating away resets it. Offline, it reloads by itself once the
 * connection is back.
 */
export class PageBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false, offline: false };

  static getDerivedStateFromError(): State {
    return { failed: true, offline: typeof navigator !== 'undefined' && navigator.onLine === false };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A page failed to render:', error);
  }

  override componentDidUpdate(): void {
    if (this.state.offline) window.addEventListener('online', reload);
  }

  override componentWillUnmount(): void {
    window.removeEventListener('online', reload);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const { title, text } = failureText(this.state.offline);
    return (
      <section
        role="alert"
        className="mx-auto max-w-xl px-4 py-24 text-center"
        data-testid={this.state.offline ? 'page-offline' : 'page-failed'}
      >
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="mt-3 text-slate-600 dark:text-slate-400">{text}</p>
        <button
          type="button"
          onClick={reload}
          className="mt-6 rounded-lg bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-amber-400"
        >
          Reload the page
        </button>
      </section>
    );
  }
}

function reload(): void {
  window.location.reload();
}

/** What the boundary says: offline, a page this device never opened is simply not stored yet. */
export function failureText(offline: boolean): { title: string; text: string } {
  return offline
    ? {
        title: 'You are offline',
        text: 'This page has not been opened on this device before, so it is not stored for offline use. It opens as soon as the connection is back.',
      }
    : {
        title: 'This page could not be shown',
        text: 'Something went wrong while loading it. Reloading usually helps, especially just after the site was updated.',
      };
}
