import type { SiteResponse } from '@lodestone/contract';
import { fixed } from '@lodestone/domain';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { usePoolFees } from '../../api/public';
import { useSite, useStratum } from '../../api/queries';
import { ChevronDownIcon } from '../../components/icons';
import { PayoutSchemes } from '../../components/PayoutSchemes';
import { PageHeader } from '../../components/publicPage';
import { safeExternalUrl } from '../../lib/links';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { FEE_DECIMALS, FEES_ERROR, FEES_LOADING, feeLines } from './fees';
import { type PortKind, portsOfKind } from './ports';

const link = 'font-medium text-amber-700 underline-offset-2 hover:underline dark:text-amber-400';
const code = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-slate-800';

interface Question {
  id: string;
  question: string;
  answer: (site: SiteResponse | undefined) => ReactNode;
}

/**
 * The fourteen questions of the FAQ (docs/website.md, FAQ), with answers written for Lodestone. The answers
 * state only what the pool does (docs/decisions.md): where a figure depends on the operator (fees,
 * coins, apps) it comes from the API or the site's configuration, never from this file.
 */
const QUESTIONS: readonly Question[] = [
  {
    id: 'start',
    question: 'How do I start mining?',
    answer: () => (
      <>
        <p>
          <Link to="/register" className={link}>
            Create an account
          </Link>
          , add a payout address for the coin you want in the dashboard's payout settings, and point your miner at the
          stratum server of its algorithm with the login <code className={code}>{'{account}.{workerName}'}</code> and
          the password <code className={code}>x</code>.
        </p>
        <p>
          The{' '}
          <Link to="/get-started" className={link}>
            Getting Started
          </Link>{' '}
          page lists every server and port; the dashboard's setup wizard walks you through it step by step.
        </p>
      </>
    ),
  },
  {
    id: 'pool',
    question: 'What is a mining pool?',
    answer: () => (
      <p>
        A mining pool combines the hashrate of many miners. A single miner may wait months or years to find a block on
        their own; together, the pool finds blocks regularly and shares the reward by the work each miner contributed,
        so income is steady instead of a lottery.
      </p>
    ),
  },
  {
    id: 'reward',
    question: 'What reward method does the pool use?',
    answer: () => (
      <>
        <p>
          Pay-per-share (PPS). Every valid share is credited the moment it is accepted, at its expected value: the
          share's difficulty times the block reward divided by the network difficulty. You are paid for your work
          whether or not the pool finds a block; the pool carries the luck.
        </p>
        <p>Stale and invalid shares are not paid.</p>
        <PayoutSchemes testId="faq-schemes" />
      </>
    ),
  },
  {
    id: 'solo',
    question: 'What is solo mining?',
    answer: (site) => <SoloAnswer site={site} />,
  },
  {
    id: 'fees',
    question: 'What are the fees?',
    answer: (site) => <FeeAnswer site={site} />,
  },
  {
    id: 'referrals',
    question: 'How do referrals work?',
    answer: () => (
      <p>
        Every account has a referral code in its settings. A miner who registers with your code (or your link, which
        fills it in) is referred by you, and you receive 20.0% of the pool fees that miner pays, credited to you as they
        mine. The referred miner pays nothing extra.
      </p>
    ),
  },
  {
    id: 'cpu-gpu',
    question: 'Can I mine with a CPU or GPU?',
    answer: () => (
      <p>
        You can connect one, but the pool's algorithms (SCRYPT, SHA256, EAGLESONG, BLAKE2S, X11 and KHEAVYHASH) are
        mined by ASICs today. A CPU or GPU earns a tiny fraction of what it costs in electricity on them. Use the{' '}
        <Link to="/profitability" className={link}>
          calculator
        </Link>{' '}
        with your hashrate and power draw before you start.
      </p>
    ),
  },
  {
    id: 'difficulty',
    question: 'How do I set the starting difficulty?',
    answer: () => (
      <>
        <p>
          Put <code className={code}>d=N</code> in the password field, for example <code className={code}>d=65536</code>
          . The pool starts your worker at that difficulty (kept within the port's limits) and then adjusts it
          automatically so your miner sends shares at a steady pace.
        </p>
        <p>
          With the password <code className={code}>x</code> the port's default starting difficulty is used, which suits
          most miners.
        </p>
      </>
    ),
  },
  {
    id: 'rentals',
    question: 'Can I use mining rental services?',
    answer: () => <RentalsAnswer />,
  },
  {
    id: 'payout-frequency',
    question: 'How often are payouts made?',
    answer: () => (
      <>
        <p>
          Every hour. A coin is paid out when its balance has reached the threshold you set and the interval you chose
          has passed since its last payout. You set both per coin in the dashboard's payout settings.
        </p>
        <p>
          After you change a payout address, payouts of that coin pause for 24 hours: if someone else got into your
          account, you have time to notice.
        </p>
      </>
    ),
  },
  {
    id: 'payout-coins',
    question: 'Which coins can I be paid in?',
    answer: () => <PayoutCoinsAnswer />,
  },
  {
    id: 'nicehash',
    question: 'Are there limits for NiceHash renters?',
    answer: () => <NiceHashAnswer />,
  },
  {
    id: 'profitable',
    question: 'Why is the pool profitable?',
    answer: () => (
      <>
        <p>
          The pool pays each share its expected value and keeps a small fee. Over many blocks, the rewards the pool
          finds match what it paid out; the fee pays for the servers and for the months when luck is below average.
        </p>
        <p>
          For you, the pool is worth it because there are no other charges: no conversion fee, no withdrawal fee, and
          payouts in the coin you choose. Compare our rate with other pools on the{' '}
          <Link to="/profitability" className={link}>
            Profitability
          </Link>{' '}
          page.
        </p>
      </>
    ),
  },
  {
    id: 'apps',
    question: 'Are there apps to track my miners?',
    answer: (site) => <AppsAnswer site={site} />,
  },
];

/** FAQ: an accordion whose items open and close independently; each answer scrolls past 300 px. */
export default function FaqPage() {
  useDocumentTitle('Frequently Asked Questions');
  const site = useSite().data;
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6" data-testid="faq-page">
      <PageHeader title="Frequently Asked Questions">
        <p>
          New here? The{' '}
          <Link to="/get-started" className={link}>
            Getting Started
          </Link>{' '}
          guide has everything you need to connect your first miner.
        </p>
      </PageHeader>
      <ul className="mt-8 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
        {QUESTIONS.map((q) => (
          <FaqItem key={q.id} question={q} site={site} isOpen={open.has(q.id)} onToggle={() => toggle(q.id)} />
        ))}
      </ul>
    </div>
  );
}

function FaqItem({
  question,
  site,
  isOpen,
  onToggle,
}: {
  question: Question;
  site: SiteResponse | undefined;
  isOpen: boolean;
  onToggle: () => void;
}) {
  const panelId = useId();
  const buttonId = useId();
  return (
    <li data-testid={`faq-${question.id}`}>
      <h2>
        <button
          id={buttonId}
          type="button"
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={onToggle}
          data-testid="faq-question"
          className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-amber-500 dark:text-white dark:hover:bg-slate-800/60"
        >
          {question.question}
          <ChevronDownIcon className={`size-5 shrink-0 transition-transform ${isOpen ? 'rotate-180' : ''}`} />
        </button>
      </h2>
      <section
        id={panelId}
        aria-labelledby={buttonId}
        hidden={!isOpen}
        data-testid="faq-answer"
        // The answer panel is at most 300 px high; longer answers scroll inside it.
        className="max-h-[300px] space-y-3 overflow-y-auto px-5 pb-5 text-slate-700 dark:text-slate-300"
      >
        {question.answer(site)}
      </section>
    </li>
  );
}

/** The solo fee of GET /v1/site as the FAQ writes fees ("1.0%"); undefined until the site settings arrive. */
function soloFee(site: SiteResponse | undefined): string | undefined {
  return site === undefined ? undefined : `${fixed(site.solo_fee_percent, FEE_DECIMALS)}%`;
}

/**
 * Solo mining (docs/solo.md): the solo ports from the server's listeners, the solo fee from the site settings, the
 * reward credited to the finder at maturity, and no PPS for solo shares.
 */
function SoloAnswer({ site }: { site: SiteResponse | undefined }) {
  const fee = soloFee(site);
  return (
    <>
      <p>
        Mining for whole blocks on your own instead of sharing the pool's. Point your miner at{' '}
        <PortsOf kind="solo" what="solo" /> with your usual login{' '}
        <code className={code}>{'{account}.{workerName}'}</code>: the port is what makes it solo.
      </p>
      <p data-testid="faq-solo-reward">
        A block your workers find there is yours. When it matures (once its chain has confirmed it), its reward less the{' '}
        {fee === undefined ? 'solo fee' : <strong>{fee} solo fee</strong>} is credited to your balance in the block's
        coin, then paid out like the rest of your balance. A block its chain orphans pays nothing.
      </p>
      <p>
        Shares sent to a solo port earn nothing by PPS, and solo blocks are not counted in the pool's luck. Unless your
        hashrate is a large part of the network's, a block may take months or years: solo is a lottery, where the pool's
        PPS is a steady income.
      </p>
    </>
  );
}

/** 'Loading fees...', then the fee of every payout coin and the solo fee, or the error text. */
function FeeAnswer({ site }: { site: SiteResponse | undefined }) {
  const solo = soloFee(site);
  const fees = usePoolFees();
  if (fees.isPending) return <p data-testid="faq-fee-answer">{FEES_LOADING}</p>;
  if (fees.isError) {
    return (
      <p data-testid="faq-fee-answer" className="text-red-700 dark:text-red-400">
        {FEES_ERROR}
      </p>
    );
  }
  const lines = feeLines(fees.data);
  return (
    <div data-testid="faq-fee-answer" className="space-y-3">
      <p>The pool fee, taken from each credit, by payout coin:</p>
      <ul className="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3">
        {lines.map((line) => (
          <li key={line.ticker} data-testid="fee-line" className="flex justify-between gap-2 tabular-nums">
            <span className="font-semibold">{line.ticker}</span>
            <span>{line.percent}</span>
          </li>
        ))}
      </ul>
      {solo !== undefined && (
        <p data-testid="faq-solo-fee">
          Solo fee: <strong>{solo}</strong> of each block you find on a solo port, kept when its reward is credited to
          you.
        </p>
      )}
      <p>There is no conversion fee and no withdrawal fee.</p>
    </div>
  );
}

/** The payout coins are the ones whose payouts are enabled: the same list the fees call answers. */
/** "the marketplace ports (SCRYPT 3334, …)" from the server's listeners, or what stands in while they load. */
function PortsOf({ kind, what }: { kind: PortKind; what: string }) {
  const stratum = useStratum();
  if (!stratum.data) return <>the {what} ports (listed on the Getting Started page)</>;
  const ports = portsOfKind(stratum.data.listeners, kind);
  if (ports === '') return <>the {what} ports (this pool has none configured at the moment)</>;
  return (
    <>
      the {what} ports (<span data-testid={`faq-ports-${kind}`}>{ports}</span>)
    </>
  );
}

function RentalsAnswer() {
  return (
    <p>
      Yes. Rented hashrate must use <PortsOf kind="marketplace" what="marketplace" />, which start at a higher
      difficulty that rental services expect. Set the pool up at the rental service with the same login{' '}
      <code className={code}>{'{account}.{workerName}'}</code> as your own miners; rented hashrate is paid like any
      other, share by share.
    </p>
  );
}

function NiceHashAnswer() {
  return (
    <>
      <p>
        NiceHash rentals must be pointed at <PortsOf kind="marketplace" what="marketplace" />. Their minimum difficulty
        is higher than on the standard ports, as NiceHash requires; on a standard port a rental would be refused or
        disconnected.
      </p>
      <p>
        If your rental needs extranonce subscription, use <PortsOf kind="xnsub" what="extranonce-subscription" /> and
        add <code className={code}>#xnsub</code> to the server address. Addresses are listed on the{' '}
        <Link to="/get-started" className={link}>
          Getting Started
        </Link>{' '}
        page.
      </p>
    </>
  );
}

function PayoutCoinsAnswer() {
  const fees = usePoolFees();
  const tickers = fees.data ? Object.keys(fees.data.pools) : [];
  return (
    <>
      <p>
        You choose, per algorithm, which coins your mining is paid in, and you can split it between several coins. The
        pool converts at no charge.
      </p>
      {tickers.length > 0 && (
        <p data-testid="faq-coins">
          The pool currently pays out in: <strong>{tickers.join(', ')}</strong>.
        </p>
      )}
      <p>USDC is paid on the Ethereum network.</p>
    </>
  );
}

function AppsAnswer({ site }: { site: SiteResponse | undefined }) {
  const apps = [
    { label: 'iOS', href: safeExternalUrl(site?.links.ios_app) },
    { label: 'Android', href: safeExternalUrl(site?.links.android_app) },
  ].filter((a): a is { label: string; href: string } => a.href !== null);
  return (
    <>
      {apps.length > 0 ? (
        <p>
          Yes, monitor apps for{' '}
          {apps.map((app, i) => (
            <span key={app.label}>
              {i > 0 && ' and '}
              <a href={app.href} target="_blank" rel="noopener noreferrer" className={link}>
                {app.label}
              </a>
            </span>
          ))}{' '}
          show your hashrate, workers and earnings.
        </p>
      ) : (
        <p>The dashboard works on phones as well as on computers.</p>
      )}
      <p>
        To share your statistics without sharing your login, send the observer link from your settings: it opens a
        read-only dashboard. Programs can read the same figures with your API key through the{' '}
        <Link to="/overview" className={link}>
          public API
        </Link>
        .
      </p>
    </>
  );
}
