import { Component, type ReactNode } from 'react';

/**
 * Catches a page that fails to render or to load (a lazy chunk missing after a new release) and says
 * so, instead of leaving a blank screen. The layout keys it by path, so navigating away resets it.
 */
export class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A page failed to render:', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section role="alert" className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold">This page could not be shown</h1>
        <p className="mt-3 text-slate-600 dark:text-slate-400">
          Something went wrong while loading it. Reloading usually helps, especially just after the site was updated.
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-6 rounded-lg bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-amber-400"
        >
          Reload the page
        </button>
      </section>
    );
  }
}
