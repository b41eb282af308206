import { formatPercent } from '../../lib/percent';

/** About us (docs/website.md, Home): the pool's terms in eight short cards. The fee comes from GET /v1/site. */
export function Features({ feePercent }: { feePercent: number | undefined }) {
  const features = [
    {
      figure: feePercent === undefined ? '…' : formatPercent(feePercent),
      title: 'Pool fee',
      text: 'One flat fee on what you earn; blocks found on a solo port pay the solo fee instead.',
    },
    {
      figure: '0%',
      title: 'Conversion fee',
      text: 'Mine one algorithm and be paid in other coins; the conversion costs you nothing.',
    },
    {
      figure: '0%',
      title: 'Withdraw fee',
      text: 'The pool takes no cut when your balance is paid out to your wallet.',
    },
    {
      figure: 'Your coin',
      title: 'Payout in the coin you choose',
      text: 'BTC, LTC, DOGE, KAS, USDC and more. Split your earnings between several coins in the proportions you set.',
    },
    {
      figure: 'PPS',
      title: 'Real-time pay-per-share',
      text: 'Every accepted share is paid at the current rate, whether or not the pool finds the next block. No luck, no waiting.',
    },
    {
      figure: '1 h',
      title: 'Hourly payouts',
      text: 'Once a balance reaches the threshold you chose, it goes out in the next hourly payout run.',
    },
    {
      figure: 'Now',
      title: 'Instant credits',
      text: 'Shares are credited to your balance as they are accepted; watch it grow on your dashboard.',
    },
    {
      figure: 'Stratum',
      title: 'Distributed stratum servers',
      text: 'Connect to the server closest to your farm for lower latency and fewer stale shares.',
    },
  ];

  return (
    <section aria-labelledby="features-title" className="bg-slate-50 dark:bg-slate-900/60">
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:py-24">
        <h2
          id="features-title"
          className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white"
        >
          Why mine here
        </h2>
        <p className="mt-3 max-w-2xl text-slate-600 dark:text-slate-400">
          A pool should be easy to check. These are our terms, and the open-source software that runs this pool is there
          for anyone to read.
        </p>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <li
              key={feature.title}
              className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-950"
            >
              <p className="text-2xl font-bold text-amber-600 dark:text-amber-400">{feature.figure}</p>
              <h3 className="mt-2 font-semibold text-slate-900 dark:text-white">{feature.title}</h3>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{feature.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
