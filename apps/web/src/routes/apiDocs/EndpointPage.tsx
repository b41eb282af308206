import { useOpenApi } from '../../api/public';
import { Breakable, PATH_BREAKS } from '../../components/Breakable';
import { type Column, DataTable } from '../../components/DataTable';
import { LoadState } from '../../components/LoadState';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ApiDocsLayout } from './ApiDocsLayout';
import { CodeBlock, Description } from './CodeBlock';
import type { EndpointDoc } from './endpoints';
import {
  curlExample,
  type FieldRow,
  fetchExample,
  findOperation,
  jsonText,
  type Parameter,
  requestUrl,
  schemaFields,
  serverUrl,
} from './openapi';

const h2 = 'mt-10 text-xl font-semibold text-slate-900 dark:text-white';

/** A boxed table with a shaded heading; on a phone each parameter and each field is a card headed by its name. */
const BOXED = {
  className: 'rounded-lg border border-slate-200 dark:border-slate-800',
  headClassName: 'bg-slate-50 dark:bg-slate-900',
  bodyClassName: 'divide-y divide-slate-200 text-slate-800 @max-md:p-3 dark:divide-slate-800 dark:text-slate-200',
  headerCellClassName:
    'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400',
  cellClassName: 'px-3 py-2 align-top',
  stackBelow: 'sm',
} as const;

const PARAMETER_COLUMNS: Column<Parameter>[] = [
  { label: 'Name', phone: 'primary', cellClassName: 'font-mono', cell: (p) => p.name },
  { label: 'In', cell: (p) => p.in },
  { label: 'Type', cellClassName: 'font-mono', cell: (p) => p.type },
  { label: 'Required', cell: (p) => (p.required ? 'yes' : 'no') },
];

const FIELD_COLUMNS: Column<FieldRow>[] = [
  {
    label: 'Field',
    phone: 'primary',
    cellClassName: 'font-mono',
    cell: (row) => (
      // The description goes under the path (on a phone too: the cell's value is this one element).
      <>
        <Breakable text={row.path} at={PATH_BREAKS} />
        {row.description && (
          <span className="mt-1 block font-sans text-xs text-slate-500 dark:text-slate-400">
            <Description text={row.description} />
          </span>
        )}
      </>
    ),
  },
  {
    label: 'Type',
    cellClassName: 'font-mono whitespace-nowrap',
    cell: (row) => (
      <>
        {row.type}
        {!row.required && <span className="ml-1 font-sans text-xs text-slate-500">(optional)</span>}
      </>
    ),
  },
];

/** One endpoint of the public API, drawn from the OpenAPI document the server publishes. */
export function EndpointPage({ endpoint }: { endpoint: EndpointDoc }) {
  useDocumentTitle(endpoint.title);
  const doc = useOpenApi();
  const operation = doc.data ? findOperation(doc.data, endpoint.path) : null;
  const base = (doc.data && serverUrl(doc.data)) ?? window.location.origin;

  return (
    <ApiDocsLayout>
      <article data-testid="api-endpoint">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">{endpoint.title}</h1>
        <p className="mt-3 flex flex-wrap items-center gap-2 font-mono text-sm">
          <span className="rounded bg-green-100 px-2 py-0.5 font-bold text-green-800 dark:bg-green-950 dark:text-green-300">
            GET
          </span>
          <span data-testid="api-path" className="break-all text-slate-900 dark:text-slate-100">
            {endpoint.path}
          </span>
        </p>
        <p className="mt-4 text-slate-700 dark:text-slate-300">{endpoint.summary}</p>
        {endpoint.private && (
          <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">
            Authentication: the account's API key (Settings) as the <code>apiKey</code> query parameter. Treat the key
            as a password.
          </p>
        )}

        {!doc.data && <LoadState isPending={doc.isPending} error={doc.error} what="API description" testId="api-doc" />}
        {doc.data && !operation && (
          <p role="alert" className="mt-6 text-red-700 dark:text-red-400">
            This server's API description has no {endpoint.path}.
          </p>
        )}
        {operation && (
          <>
            <h2 className={h2}>Parameters</h2>
            {operation.parameters.length === 0 ? (
              <p className="mt-2 text-slate-700 dark:text-slate-300" data-testid="api-no-parameters">
                None.
              </p>
            ) : (
              <DataTable
                {...BOXED}
                testId="api-parameters"
                className={`mt-3 ${BOXED.className}`}
                columns={PARAMETER_COLUMNS}
                rows={operation.parameters}
                rowKey={(p) => `${p.in}-${p.name}`}
              />
            )}

            <h2 className={h2}>Request</h2>
            <CodeBlock label="curl" code={curlExample(requestUrl(base, operation))} testId="api-curl" />
            <CodeBlock label="JavaScript" code={fetchExample(requestUrl(base, operation))} testId="api-fetch" />

            <h2 className={h2}>Response</h2>
            {operation.responseExample !== undefined && (
              <CodeBlock
                label="200 OK (example)"
                code={jsonText(operation.responseExample)}
                testId="api-response-example"
              />
            )}
            {operation.responseSchema && (
              <DataTable
                {...BOXED}
                testId="api-fields"
                className={`mt-4 ${BOXED.className}`}
                caption="Fields of the answer"
                columns={FIELD_COLUMNS}
                rows={schemaFields(operation.responseSchema)}
                rowKey={(row) => row.path}
                rowTestId="api-field"
              />
            )}

            {operation.errorExample !== undefined && (
              <>
                <h2 className={h2}>Errors</h2>
                <p className="mt-2 text-slate-700 dark:text-slate-300">
                  A refused call answers a 4xx status (429 when rate-limited, with <code>Retry-After</code>) and a
                  message with a stable code:
                </p>
                {operation.refusals.length > 0 && (
                  <dl className="mt-3 space-y-3" data-testid="api-refusals">
                    {operation.refusals.map((refusal) => (
                      <div key={refusal.status} data-testid={`api-refusal-${refusal.status}`}>
                        <dt className="font-mono text-sm font-semibold text-slate-900 dark:text-slate-100">
                          {refusal.status}
                          {refusal.example !== undefined && (
                            <span className="ml-2 font-normal break-words text-slate-600 dark:text-slate-400">
                              {JSON.stringify(refusal.example)}
                            </span>
                          )}
                        </dt>
                        <dd className="text-slate-700 dark:text-slate-300">{refusal.when}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                <CodeBlock label="Error (example)" code={jsonText(operation.errorExample)} testId="api-error-example" />
              </>
            )}
          </>
        )}
      </article>
    </ApiDocsLayout>
  );
}
