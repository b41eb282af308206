import type { SiteResponse } from '@lodestone/contract';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { InfoIcon } from '../../components/icons';
import { useHeroObserver } from '../../components/layout/chrome';

const CLAIMS = [
  {
    title: 'Lower fees',
    text: 'One small pool fee and nothing else: no conversion fee, no withdrawal fee.',
  },
  {
    title: 'Dedicated support',
    text: 'Questions go to people who run the pool, by e-mail or phone.',
  },
  {
    title: 'Dedicated servers',
    text: 'Stratum servers that only serve this pool, not shared with anyone else.',
  },
  {
    title: 'USDC payouts',
    text: 'Take earnings in USDC on Ethereum, or in BTC, LTC, DOGE, KAS and other coins.',
  },
] as const;

/** The home hero: the pool's pitch, the way in (/register) and, on the demo network, a plain notice. */
/** The VIP Application modal (with its robot check) is only downloaded when someone opens it. */
const VipApplication = lazy(() => import('./VipApplication'));

/** How demo shares are valued, in the notice's words (docs/money.md, "Demo economics"). */
export function demoValuationText(valuation: SiteResponse['demo_valuation']): string {
  return valuation === 'chain'
    ? "shares are valued at the demo chains' own easy difficulty, so balances reach payout thresholds within minutes and payouts can be watched end to end; the profit figures are absurdly high and mean nothing."
    : "shares are valued at round reference figures of the real coins, so profits are of a real pool's order (a CPU earns next to nothing).";
}

export function Hero({ site }: { site: SiteResponse | undefined }) {
  const ref = useRef<HTMLElement>(null);
  useHeroObserver(ref);
  const [vipOpen, setVipOpen] = useState(false);
  return (
    <section
      ref={ref}
      aria-labelledby="hero-title"
      className="relative -mt-16 overflow-hidden bg-slate-950 bg-[radial-gradient(ellipse_at_top_right,rgba(245,158,11,0.22),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgba(56,189,248,0.14),transparent_50%)] pt-16 text-white"
    >
      <div className="mx-auto max-w-7xl px-4 pt-16 pb-20 sm:px-6 lg:pt-24 lg:pb-28">
        {site?.demo && (
          <div
            data-testid="demo-notice"
            role="note"
            className="mb-10 flex max-w-3xl gap-3 rounded-xl border border-amber-300/50 bg-amber-400/15 p-4 text-sm text-amber-50"
          >
            <InfoIcon className="mt-0.5 size-5 shrink-0 text-amber-300" />
            <p>
              <strong className="font-semibold text-amber-200">Demo network.</strong> This pool runs Lodestone's
              built-in demo network: the hashrates and miners on this site come from simulated miners working on demo
              jobs, not from real coin networks, and {demoValuationText(site.demo_valuation)} No real coins are paid
              out.
            </p>
          </div>
        )}
        <p className="text-sm font-semibold tracking-widest text-amber-400 uppercase">{site?.pool_name ?? '\u00a0'}</p>
        <h1 id="hero-title" className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl lg:text-6xl">
          Mine with lower fees. Get paid in the coin you want.
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-slate-300">
          Point your miners at our stratum servers and every accepted share is credited at once, pay-per-share. Balances
          are paid out every hour, in the coins you pick, USDC included.
        </p>
        <div className="mt-10 flex flex-wrap gap-4">
          <Link
            to="/register"
            className="inline-flex items-center rounded-lg bg-amber-500 px-6 py-3 text-base font-semibold text-slate-950 shadow hover:bg-amber-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300"
          >
            Start mining
          </Link>
          <a
            href="#pool-stats"
            className="inline-flex items-center rounded-lg border border-white/30 px-6 py-3 text-base font-semibold text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300"
          >
            See the pool's numbers
          </a>
          <button
            type="button"
            data-testid="vip-open"
            onClick={() => setVipOpen(true)}
            className="inline-flex items-center rounded-lg border border-amber-400/60 px-6 py-3 text-base font-semibold text-amber-300 hover:bg-amber-400/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300"
          >
            VIP Application
          </button>
        </div>
        {vipOpen && (
          <Suspense fallback={null}>
            <VipApplication onClose={() => setVipOpen(false)} />
          </Suspense>
        )}
        <ul className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {CLAIMS.map((claim) => (
            <li key={claim.title} className="rounded-xl border border-white/10 bg-white/5 p-5">
              <h2 className="font-semibold text-white">{claim.title}</h2>
              <p className="mt-2 text-sm text-slate-300">{claim.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
