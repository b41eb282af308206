import { Link } from 'react-router';
import { useOpenApi } from '../../api/public';
import { LoadState } from '../../components/LoadState';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ApiDocsLayout } from './ApiDocsLayout';
import { CodeBlock, Description } from './CodeBlock';
import { ENDPOINTS } from './endpoints';
import { findOperation, jsonText, serverUrl } from './openapi';

const h2 = 'mt-10 text-xl font-semibold text-slate-900 dark:text-white';
const p = 'mt-3 text-slate-700 dark:text-slate-300';
const link = 'font-medium text-amber-700 hover:underline dark:text-amber-400';
const code = 'rounded bg-slate-100 px-1 font-mono text-[0.9em] dark:bg-slate-800';

/** /overview: what the public API is, its base URL, authentication, limits and errors. */
export default function OverviewPage() {
  useDocumentTitle('API Overview');
  const doc = useOpenApi();
  const base = (doc.data && serverUrl(doc.data)) ?? window.location.origin;
  const errorExample = doc.data ? findOperation(doc.data, ENDPOINTS[0]?.path ?? '')?.errorExample : undefined;

  return (
    <ApiDocsLayout>
      <article data-testid="api-overview">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">API Overview</h1>
        <p className={p}>
          Read the pool's statistics and profitability, and your own account's figures, from your programs. Every answer
          is JSON over HTTPS with GET; the public calls may be used from any website (CORS is open).
        </p>
        {doc.data ? (
          <p className={p} data-testid="api-description">
            <Description text={typeof doc.data.info.description === 'string' ? doc.data.info.description : ''} />
          </p>
        ) : (
          <LoadState isPending={doc.isPending} error={doc.error} what="API description" testId="api-doc" />
        )}

        <h2 className={h2}>Base URL</h2>
        <CodeBlock label="Base URL" code={`${base}/v1`} testId="api-base-url" />

        <h2 className={h2}>Endpoints</h2>
        <ul className="mt-3 space-y-3">
          {ENDPOINTS.map((e) => (
            <li key={e.route} className="text-slate-700 dark:text-slate-300">
              <Link to={`/${e.route}`} className={link}>
                {e.title}
              </Link>{' '}
              <code className={code}>GET {e.path}</code>
              {e.private && <span className="ml-2 text-xs text-slate-500">(API key)</span>}
              <p className="mt-1 text-sm">{e.summary}</p>
            </li>
          ))}
        </ul>

        <h2 className={h2}>Authentication</h2>
        <p className={p}>
          Pool data and profitability need no key. Your account's data needs its API key, shown in your{' '}
          <Link to="/settings" className={link}>
            settings
          </Link>
          , sent as the <code className={code}>apiKey</code> query parameter. The key only reads; it cannot change
          settings or move funds. Keep it private anyway, and regenerate it in your settings if it leaks (changing your
          password also replaces it).
        </p>

        <h2 className={h2}>Rate limits</h2>
        <p className={p}>
          Calls are limited per network address, and calls with an API key also per key. Every answer carries{' '}
          <code className={code}>RateLimit-Limit</code>, <code className={code}>RateLimit-Remaining</code> and{' '}
          <code className={code}>RateLimit-Reset</code>; past the limit the answer is 429 with{' '}
          <code className={code}>Retry-After</code> in seconds. The figures change every few seconds at most, so polling
          once a minute is plenty.
        </p>

        <h2 className={h2}>Errors</h2>
        <p className={p}>
          A refused call answers a 4xx status with a message for people and a stable code for programs; a server error
          answers 5xx without details.
        </p>
        {errorExample !== undefined && <CodeBlock label="Error (example)" code={jsonText(errorExample)} />}

        <h2 className={h2}>Machine-readable description</h2>
        <p className={p}>
          The complete OpenAPI 3.1 description of the API, which these pages are drawn from, is at{' '}
          <a href="/v1/openapi.json" className={link} data-testid="api-openapi-link">
            /v1/openapi.json
          </a>
          .
        </p>
      </article>
    </ApiDocsLayout>
  );
}
