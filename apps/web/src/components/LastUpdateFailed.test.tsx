import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LastUpdateFailed } from './LastUpdateFailed';

const at = Date.UTC(2026, 4, 5, 14, 3, 9);
const alert = (query: { data: unknown; isError: boolean; error: Error | null }) =>
  renderToString(<LastUpdateFailed query={{ ...query, dataUpdatedAt: at }} refreshSeconds={30} />);

describe('the alert of a failed refresh', () => {
  it('names the reason, the time of the figures shown and the next try (the tests run in UTC)', () => {
    const html = alert({ data: { cells: [] }, isError: true, error: new Error('Server error.') });
    expect(html).toContain('role="alert"');
    expect(html).toContain(
      'The last update failed: Server error. Showing the figures from 14:03:09; trying again every 30 seconds.',
    );
  });

  it('says nothing while the refreshes go well, nor before the first answer (LoadState speaks then)', () => {
    expect(alert({ data: { cells: [] }, isError: false, error: null })).toBe('');
    expect(alert({ data: undefined, isError: true, error: new Error('Server error.') })).toBe('');
  });
});
