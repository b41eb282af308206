import type { SiteResponse } from '@lodestone/contract';
import type { ReactNode } from 'react';
import { useSite } from '../../api/queries';
import { Icon, MailIcon, PhoneIcon } from '../../components/icons';
import { cardClass, LandingHero, ScrollTargetSection, sectionHeadingClass } from '../../components/landingPage';
import { type ContactKind, NOT_CONFIGURED, siteContacts } from '../../lib/contacts';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/** Both hero buttons stop 50 px above their section (docs/website.md, Power bridge). */
const SCROLL_OFFSET = 50;

const FEATURES = [
  {
    title: 'Zero Stale Shares',
    text: 'The stratum server sits next to your machines, so new jobs reach them over your local network instead of a round trip across the internet. Expect 99.9% of your shares accepted.',
  },
  {
    title: 'Traffic Optimization',
    text: 'Hundreds of miners share one upstream connection to the pool: 50–90% less network traffic, and it keeps working on a slow or metered line.',
  },
  {
    title: 'Universal Compatibility',
    text: 'Any stratum V1 miner connects as it does today, on every algorithm the pool serves. No firmware changes.',
  },
  {
    title: 'Enterprise Security',
    text: 'The bridge runs inside your network, behind your firewall: your miners never talk to the internet, and your own Bitcoin node checks the blocks they work on.',
  },
  {
    title: 'Instant Setup',
    text: 'A preconfigured server arrives ready to plug in. Point your miners at its local address and you are mining.',
  },
] as const;

const SPECS = [
  ['Share acceptance', '99.9%'],
  ['Network traffic', '50–90% less'],
  ['Latency to your miners', 'Local network'],
  ['Included', 'Stratum server + Bitcoin full node'],
] as const;

/**
 * The power bridge (docs/website.md, Power bridge): a stratum server and a Bitcoin node installed in the
 * customer's farm. Contacts (phones, chat, e-mail) come from the site configuration.
 */
export default function PowerBridgePage() {
  useDocumentTitle('Power Bridge');
  const site = useSite().data;
  return (
    <div data-testid="powerbridge-page">
      <LandingHero
        background="bg-[radial-gradient(ellipse_at_top_right,rgba(245,158,11,0.22),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgba(56,189,248,0.14),transparent_50%)]"
        width="max-w-6xl"
        eyebrow="Power bridge"
        title="Your own stratum server, inside your farm."
        lead="A stratum server and a Bitcoin node on your premises: lower ping, fewer stale shares and far less traffic, even on a weak connection."
        actions={[
          { label: 'Start Mining Smarter', testId: 'start-mining-smarter', scrollTo: 'contact' },
          { label: 'View Specifications', testId: 'view-specifications', scrollTo: 'features' },
        ]}
        scrollOffset={SCROLL_OFFSET}
      >
        <dl className="mt-14 grid max-w-3xl grid-cols-2 gap-6 sm:grid-cols-4">
          {SPECS.map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-slate-400 uppercase">{label}</dt>
              <dd className="mt-1 font-semibold text-white">{value}</dd>
            </div>
          ))}
        </dl>
      </LandingHero>

      <ScrollTargetSection id="features" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="features-title" className={sectionHeadingClass}>
          Specifications
        </h2>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((f) => (
            <li key={f.title} data-testid="feature-card" className={cardClass}>
              <h3 className="font-semibold text-slate-900 dark:text-white">{f.title}</h3>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{f.text}</p>
            </li>
          ))}
        </ul>
      </ScrollTargetSection>

      <ScrollTargetSection
        id="contact"
        className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="contact-title" className={sectionHeadingClass}>
            Talk to us
          </h2>
          <p className="mt-3 max-w-2xl text-slate-600 dark:text-slate-400">
            Tell us about your farm: how many machines, which algorithms and what connection you have. We will size a
            bridge for it.
          </p>
          <Contacts site={site} />
        </div>
      </ScrollTargetSection>
    </div>
  );
}

function Contacts({ site }: { site: SiteResponse | undefined }) {
  const phoneIcon = <PhoneIcon className="size-5" />;
  const look: Record<ContactKind, { label: string; icon: ReactNode }> = {
    phone_eu: { label: 'Phone (EU)', icon: phoneIcon },
    phone_us: { label: 'Phone (US)', icon: phoneIcon },
    chat: { label: 'Chat', icon: <ChatIcon /> },
    email: { label: 'E-mail', icon: <MailIcon className="size-5" /> },
  };
  const items = siteContacts(site, ['phone_eu', 'phone_us', 'chat', 'email']).map((c) => ({
    key: c.kind,
    ...look[c.kind],
    text: c.configured ? c.text : `${NOT_CONFIGURED} (${c.setting})`,
    href: c.configured ? c.href : null,
    configured: c.configured,
  }));
  if (!site) return <p className="mt-6 text-slate-500 dark:text-slate-400">Loading contact details…</p>;
  return (
    <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="contacts">
      {items.map((item) => (
        <li
          key={item.key}
          className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-950"
        >
          <span className="text-amber-600 dark:text-amber-400">{item.icon}</span>
          <span className="min-w-0">
            <span className="block text-xs text-slate-500 uppercase dark:text-slate-400">{item.label}</span>
            {item.href ? (
              <a
                href={item.href}
                className="font-semibold break-all text-slate-900 hover:text-amber-600 dark:text-white"
              >
                {item.text}
              </a>
            ) : (
              <span
                className={
                  item.configured
                    ? 'font-semibold break-all text-slate-900 dark:text-white'
                    : 'break-words text-slate-500 italic dark:text-slate-400'
                }
              >
                {item.text}
              </span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A speech bubble, in the frame of the site's other line icons. */
function ChatIcon() {
  return (
    <Icon>
      <path d="M4 5.5h16v10H9l-5 4z" />
    </Icon>
  );
}
