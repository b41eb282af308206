import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';

/**
 * What a screen shows on its first render, as text: every query still loading, unless `seed` put an
 * answer or a failure in the query cache first. React renders the screen to HTML in Node (no browser,
 * no effects), so a unit test can read what a loading, empty or failed screen says.
 */
export function renderPage(
  page: ReactNode,
  { path = '/', seed }: { path?: string; seed?: (client: QueryClient) => void } = {},
): string {
  // A failure seeded in the cache stays a failure on mount instead of being fetched again.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false } } });
  seed?.(client);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
  client.clear();
  return html;
}

/**
 * Seeds a query as failed with `message` (or with `error` itself, such as an ApiError with the server's status), as the
 * query client leaves it after a refused call.
 */
export function failQuery(client: QueryClient, queryKey: QueryKey, failure: string | Error): void {
  const error = typeof failure === 'string' ? new Error(failure) : failure;
  client
    .getQueryCache()
    .build(client, { queryKey })
    .setState({ status: 'error', error, fetchStatus: 'idle', errorUpdatedAt: Date.now() });
}

/** The text of rendered markup as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How many elements of the markup carry `data-testid="testId"`. */
export function countTestIds(html: string, testId: string): number {
  return html.split(`data-testid="${testId}"`).length - 1;
}
