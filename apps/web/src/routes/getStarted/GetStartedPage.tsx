import type { StratumResponse } from '@lodestone/contract';
import { ALGORITHMS, type Algorithm } from '@lodestone/domain';
import { Link } from 'react-router';
import { useSite, useStratum } from '../../api/queries';
import { AlgorithmLogo } from '../../components/AlgorithmLogo';
import { CopyButton } from '../../components/CopyButton';
import { formatPercent } from '../../lib/percent';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

type Listener = StratumResponse['listeners'][number];

/**
 * The kind of a port in words (docs/decisions.md, Pool engine; solo: docs/solo.md). The solo port's words carry the
 * solo fee of GET /v1/site ("the solo fee" while it loads).
 */
const KIND_TEXT: Record<Listener['kind'], (soloFee: number | undefined) => string> = {
  standard: () => 'Standard port.',
  marketplace: () => 'Marketplace-restricted port (NiceHash-compatible, higher minimum difficulty).',
  xnsub: () => 'Alternative port with #xnsub.',
  solo: (soloFee) =>
    `Solo port: a block your workers find here is yours, less the ${
      soloFee === undefined ? '' : `${formatPercent(soloFee)} `
    }solo fee, credited to your balance when it matures; shares sent here are not paid by PPS.`,
};

const link = 'font-medium text-amber-700 underline-offset-2 hover:underline dark:text-amber-400';
const code =
  'rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm text-slate-900 dark:bg-slate-800 dark:text-slate-100';

/**
 * Getting Started: how to point a miner at the pool, with every
 * stratum port the server reports, grouped by algorithm in the usual order (docs/website.md, Figures).
 */
export default function GetStartedPage() {
  useDocumentTitle('Getting Started');
  const { data, error, isPending, isError } = useStratum();
  const soloFee = useSite().data?.solo_fee_percent;

  return (
    <section className="mx-auto max-w-4xl px-4 py-16 sm:px-6" data-testid="get-started">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Getting Started</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-400">
        Point your miner at one of the stratum servers below and log in with your account and a worker name.
      </p>

      <h2 className="mt-10 text-xl font-semibold text-slate-900 dark:text-white">Login and password</h2>
      <dl className="mt-4 space-y-3 text-slate-700 dark:text-slate-300">
        <div>
          <dt className="font-semibold">Login (user name)</dt>
          <dd className="mt-1">
            <code className={code}>{'{account}.{workerName}'}</code>: the name of your pool account, a dot, and any name
            you choose for this machine, for example <code className={code}>myaccount.rig1</code>.
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Password</dt>
          <dd className="mt-1">
            <code className={code}>x</code>, or <code className={code}>d=N</code> to start at difficulty N (for example{' '}
            <code className={code}>d=65536</code>).
          </dd>
        </div>
      </dl>

      <h2 className="mt-10 text-xl font-semibold text-slate-900 dark:text-white">Stratum servers</h2>
      {data?.listeners.some((l) => l.kind === 'solo') && (
        <p data-testid="solo-intro" className="mt-4 text-slate-600 dark:text-slate-400">
          Every port pays your shares by PPS except the solo ports: there you mine for whole blocks on your own, with
          the same login.{' '}
          <Link to="/faq" className={link}>
            What is solo mining?
          </Link>
        </p>
      )}
      {isPending && (
        <p role="status" className="mt-4 text-slate-600 dark:text-slate-400">
          Loading stratum servers…
        </p>
      )}
      {isError && (
        <p role="alert" className="mt-4 text-red-700 dark:text-red-400">
          The stratum servers could not be loaded: {error.message.replace(/\.$/, '')}. Please reload the page to try
          again.
        </p>
      )}
      {data && (
        <ul className="mt-4 space-y-6">
          {ALGORITHMS.map((algorithm) => (
            <AlgorithmServers
              key={algorithm.key}
              algorithm={algorithm}
              listeners={data.listeners.filter((l) => l.algorithm === algorithm.key)}
              soloFee={soloFee}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function AlgorithmServers({
  algorithm,
  listeners,
  soloFee,
}: {
  algorithm: Algorithm;
  listeners: Listener[];
  soloFee: number | undefined;
}) {
  const demo = listeners.some((l) => l.demo);
  return (
    <li
      data-testid={`stratum-${algorithm.key}`}
      className="rounded-xl border border-slate-200 p-4 shadow-sm dark:border-slate-800"
    >
      <h3 className="flex items-center gap-3 font-semibold text-slate-900 dark:text-white">
        <AlgorithmLogo algorithm={algorithm.name} />
        {algorithm.name}
      </h3>
      {listeners.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">Not served by this pool yet.</p>
      ) : (
        <>
          {demo && (
            <p data-testid="demo-note" className="mt-3 text-sm text-amber-700 dark:text-amber-400">
              This algorithm runs on the built-in demo network, not on a real coin network.
            </p>
          )}
          <ul className="mt-3 space-y-3">
            {listeners.map((l) => (
              <li key={l.url} data-testid="stratum-listener" data-kind={l.kind} className="flex items-start gap-3">
                <CopyButton text={l.url} label={`Copy ${l.url}`} testId={`copy-${algorithm.key}-${l.port}`} />
                <div className="min-w-0 text-sm">
                  <code data-testid="stratum-url" className={`${code} break-all`}>
                    {l.url}
                  </code>
                  <p className="mt-1 text-slate-600 dark:text-slate-400">
                    {KIND_TEXT[l.kind](soloFee)}
                    {l.kind === 'xnsub' && (
                      <>
                        {' '}
                        {/* The FAQ's instruction, as NiceHash asks for it: the marketplace then subscribes. */}
                        Add <code className={code}>#xnsub</code> to the server address, e.g.{' '}
                        <code className={`${code} break-all`}>{`${l.url}#xnsub`}</code>.
                      </>
                    )}
                    {l.tls && ' Encrypted (TLS).'}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </li>
  );
}
