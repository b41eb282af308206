import { Link } from 'react-router';
import { useSite } from '../../api/queries';
import { primaryButtonClass } from '../../components/form';
import { ExternalLinkIcon } from '../../components/icons';
import { cardClass, LandingHero, ScrollTargetSection, sectionHeadingClass } from '../../components/landingPage';
import { supportEmail } from '../../lib/contacts';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import {
  addressUrl,
  CAMPAIGN,
  CONTRIBUTIONS,
  type Contribution,
  contributionStatus,
  DONATION,
  IMPACT,
  progress,
  txUrl,
} from './campaign';

/** 'Donate Now' stops 70 px above the donation section (docs/website.md, Power bridge). */
const DONATE_SCROLL_OFFSET = 70;

const linkClass = 'font-medium text-amber-700 hover:underline dark:text-amber-400';

const STEPS = [
  {
    title: 'You mine',
    text: 'Point your miners at the pool as usual. Nothing changes for you: same pay-per-share rate, same payouts.',
  },
  {
    title: `${CAMPAIGN.feeShare} of our fees go to charity`,
    text: `${CAMPAIGN.feeShare} of the pool fees earned in ${CAMPAIGN.month} are paid in BTC to a food-assistance group in ${CAMPAIGN.region}.`,
  },
  {
    title: 'People get fed',
    text: 'The group turns every satoshi into meals for families who need them, and publishes what it received.',
  },
] as const;

/**
 * Sats4Soup (docs/website.md, Lottery and Sats4Soup): the campaign, its impact, the two contributions with their
 * progress ('n/2 completed'), and direct donations. Everything here is the campaign's static data
 * (campaign.ts); a contribution shows 'Sent' only once its transaction id has been published.
 */
export default function Sats4SoupPage() {
  useDocumentTitle('Sats4Soup');
  const done = progress(CONTRIBUTIONS);
  const site = useSite().data;
  const email = supportEmail(site);

  return (
    <div data-testid="sats4soup-page">
      <LandingHero
        background="bg-[radial-gradient(ellipse_at_top_left,rgba(245,158,11,0.25),transparent_55%)]"
        width="max-w-5xl"
        eyebrow="Charity campaign"
        title="Sats4Soup"
        lead={`Mining that feeds people: ${CAMPAIGN.feeShare} of the pool's fees in ${CAMPAIGN.month} go, in bitcoin, to a food-assistance group in ${CAMPAIGN.region}.`}
        actions={[
          { label: 'Donate Now', testId: 'donate-now', scrollTo: 'donate' },
          { label: 'Join The Pool', to: '/get-started' },
        ]}
        scrollOffset={DONATE_SCROLL_OFFSET}
      />

      <div className="mx-auto max-w-5xl space-y-20 px-4 py-16 sm:px-6">
        <section aria-labelledby="how-it-works">
          <h2 id="how-it-works" className={sectionHeadingClass}>
            How it works
          </h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, i) => (
              <li key={step.title} className={cardClass}>
                <span className="flex size-9 items-center justify-center rounded-full bg-amber-500 font-bold text-slate-950">
                  {i + 1}
                </span>
                <h3 className="mt-4 font-semibold text-slate-900 dark:text-white">{step.title}</h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="impact">
          <h2 id="impact" className={sectionHeadingClass}>
            Impact
          </h2>
          <dl className="mt-8 grid grid-cols-2 gap-6 md:grid-cols-4" data-testid="impact">
            {IMPACT.map((item) => (
              <div key={item.label} className={`${cardClass} text-center`}>
                <dt className="text-sm text-slate-500 dark:text-slate-400">{item.label}</dt>
                <dd className="mt-1 text-3xl font-bold text-amber-600 dark:text-amber-400">{item.value}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="mission" className="grid gap-6 md:grid-cols-2">
          <h2 id="mission" className="sr-only">
            Our mission
          </h2>
          <blockquote className={`${cardClass} border-l-4 border-l-amber-500`}>
            <p className="text-lg text-slate-800 italic dark:text-slate-200">
              “Every share mined this September puts food on someone's table. That is the best use of a block reward we
              can think of.”
            </p>
            <footer className="mt-3 text-sm text-slate-500 dark:text-slate-400">— The pool team</footer>
          </blockquote>
          <blockquote className={`${cardClass} border-l-4 border-l-amber-500`}>
            <p className="text-lg text-slate-800 italic dark:text-slate-200">
              “Bitcoin moves value to anyone, anywhere, in minutes. Sats4Soup moves it to the people next door.”
            </p>
            <footer className="mt-3 text-sm text-slate-500 dark:text-slate-400">— The pool team</footer>
          </blockquote>
        </section>

        <section aria-labelledby="our-donation" data-testid="our-donation">
          <h2 id="our-donation" className={sectionHeadingClass}>
            Our Donation
          </h2>
          <div className="mt-6">
            <div className="flex items-center justify-between text-sm text-slate-700 dark:text-slate-300">
              <span>Contributions sent</span>
              <span data-testid="donation-progress" className="font-semibold">
                {done.text}
              </span>
            </div>
            <div
              role="progressbar"
              aria-label="Contributions sent"
              aria-valuemin={0}
              aria-valuemax={done.total}
              aria-valuenow={done.done}
              aria-valuetext={done.text}
              className="mt-2 h-3 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
            >
              <div
                className="h-full rounded-full bg-amber-500 transition-[width]"
                style={{ width: `${done.percent}%` }}
              />
            </div>
          </div>
          <ul className="mt-8 grid gap-6 md:grid-cols-2">
            {CONTRIBUTIONS.map((c) => (
              <ContributionCard key={c.date} contribution={c} />
            ))}
          </ul>
          <div className="mt-10 text-center">
            <Link to="/get-started" className={primaryButtonClass}>
              Join the Cause
            </Link>
          </div>
        </section>

        <ScrollTargetSection id="donate" testId="donate" className={cardClass}>
          <h2 id="donate-title" className={sectionHeadingClass}>
            Donate directly
          </h2>
          <p className="mt-3 text-slate-600 dark:text-slate-400">
            You can also give to the group yourself, in bitcoin on-chain or over Lightning. Donations go straight to the
            group; the pool never holds them.
          </p>
          {DONATION.btcAddress || DONATION.lightning ? (
            <div className="mt-6 flex flex-wrap items-start gap-6">
              {DONATION.qrImage && (
                <img
                  src={DONATION.qrImage}
                  alt="QR code of the donation address"
                  className="size-40 rounded-lg border border-slate-200 bg-white p-2 dark:border-slate-700"
                />
              )}
              <div className="min-w-0 space-y-3">
                {DONATION.btcAddress && (
                  <p>
                    <span className="block text-sm text-slate-500 dark:text-slate-400">Bitcoin address</span>
                    <a
                      href={addressUrl(DONATION.btcAddress)}
                      target="_blank"
                      rel="noopener noreferrer"
                      className={`${linkClass} font-mono break-all`}
                    >
                      {DONATION.btcAddress}
                    </a>
                  </p>
                )}
                {DONATION.lightning && (
                  <p>
                    <a href={DONATION.lightning} className={linkClass}>
                      Donate with Lightning
                    </a>
                  </p>
                )}
              </div>
            </div>
          ) : (
            <p className="mt-6 text-slate-700 dark:text-slate-300" data-testid="donate-unpublished">
              The group's donation address will be published here.
              {email?.configured && email.href && (
                <>
                  {' '}
                  Until then, write to{' '}
                  <a href={email.href} className={linkClass}>
                    {email.text}
                  </a>{' '}
                  and we will put you in touch.
                </>
              )}
            </p>
          )}
        </ScrollTargetSection>
      </div>
    </div>
  );
}

function ContributionCard({ contribution }: { contribution: Contribution }) {
  const sent = contributionStatus(contribution) === 'sent';
  return (
    <li className={cardClass} data-testid="contribution" data-status={sent ? 'sent' : 'pending'}>
      <div className="flex items-center justify-between gap-3">
        <h3 className="font-semibold text-slate-900 dark:text-white">{contribution.date}</h3>
        <span
          data-testid="contribution-status"
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            sent
              ? 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300'
              : 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300'
          }`}
        >
          {sent ? 'Sent' : 'Pending'}
        </span>
      </div>
      <p
        className="mt-3 text-2xl font-bold text-slate-900 tabular-nums dark:text-white"
        data-testid="contribution-amount"
      >
        {contribution.amount ? `${contribution.amount} BTC` : 'Amount will be published with the transaction'}
      </p>
      <p className="mt-3 text-sm">
        {sent && contribution.tx ? (
          <a
            href={txUrl(contribution.tx)}
            target="_blank"
            rel="noopener noreferrer"
            className={`${linkClass} inline-flex items-center gap-1`}
          >
            View on mempool
            <ExternalLinkIcon className="size-4" />
          </a>
        ) : (
          <span className="text-slate-500 dark:text-slate-400">Link will appear here</span>
        )}
      </p>
    </li>
  );
}
