import type { SiteResponse } from '@lodestone/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type ContactKind, NOT_CONFIGURED, siteContacts } from '../../lib/contacts';
import { safeExternalUrl } from '../../lib/links';
import { BrandMark } from '../BrandMark';
import { ExternalLinkIcon, MailIcon, PhoneIcon } from '../icons';

const linkClass =
  'rounded-sm text-slate-600 hover:text-amber-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 dark:text-slate-400 dark:hover:text-amber-400';

/** A page of this site, or an external page (`href` null when the operator has not configured it). */
type FooterLink = { label: string; to: string } | { label: string; href: string | null };

const FOOTER_LABELS: Record<ContactKind, string> = { email: 'Support', phone_eu: 'EU', phone_us: 'US', chat: 'Chat' };

/**
 * The footer (docs/website.md, Layout and navigation): socials, app links, site links, contact. Everything that names
 * the operator comes from GET /v1/site; external links appear only when configured. A contact still at
 * its built-in placeholder reads "not configured (SUPPORT_EMAIL)", never the made-up address.
 */
export function SiteFooter({ site }: { site: SiteResponse | undefined }) {
  const socials = (site?.links.socials ?? []).flatMap(({ label, url }) => {
    const href = safeExternalUrl(url);
    return href && label.trim() ? [{ label: label.trim(), href }] : [];
  });
  const apps = [
    { label: 'iOS app', href: safeExternalUrl(site?.links.ios_app) },
    { label: 'Android app', href: safeExternalUrl(site?.links.android_app) },
  ].filter((app): app is { label: string; href: string } => app.href !== null);
  const links: FooterLink[] = [
    { label: 'Home', to: '/' },
    { label: 'Blog', href: safeExternalUrl(site?.links.blog) },
    { label: 'API', to: '/api' },
    { label: 'FAQ', to: '/faq' },
    { label: 'Sats4Soup', to: '/sats4soup' },
    { label: 'Status', href: safeExternalUrl(site?.links.status) },
    { label: 'Terms of Service', to: '/terms' },
    { label: 'Privacy Policy', to: '/privacy' },
  ];

  const contacts = siteContacts(site, ['email', 'phone_eu', 'phone_us']);

  return (
    <footer
      data-testid="site-footer"
      className="border-t border-slate-200 bg-slate-50 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <div className="flex items-center gap-2">
            <BrandMark className="size-8" />
            <span className="text-lg font-bold text-slate-900 dark:text-white">{site?.pool_name}</span>
          </div>
          <p className="mt-3 max-w-xs text-slate-600 dark:text-slate-400">
            Pay-per-share mining for six algorithms, paid out hourly in the coins you choose.
          </p>
          {socials.length > 0 && (
            <FooterList title="Follow us" className="mt-6">
              {socials.map((s) => (
                <li key={s.href}>
                  <ExternalLink href={s.href}>{s.label}</ExternalLink>
                </li>
              ))}
            </FooterList>
          )}
        </div>

        <FooterList title="Links">
          {links.map((link) => (
            <SiteLink key={link.label} link={link} />
          ))}
        </FooterList>

        {apps.length > 0 ? (
          <FooterList title="Mobile apps">
            <li className="text-slate-600 dark:text-slate-400">Watch your miners from your phone.</li>
            {apps.map((app) => (
              <li key={app.label}>
                <ExternalLink href={app.href}>{app.label}</ExternalLink>
              </li>
            ))}
          </FooterList>
        ) : (
          <div aria-hidden="true" className="hidden lg:block" />
        )}

        {contacts.length > 0 && (
          <FooterList title="Contact">
            {contacts.map((c) => (
              <li
                key={c.kind}
                data-testid={`contact-${c.kind}`}
                className="flex items-center gap-2 text-slate-600 dark:text-slate-400"
              >
                {c.kind === 'email' ? <MailIcon className="size-4" /> : <PhoneIcon className="size-4" />}
                <span className="font-medium text-slate-700 dark:text-slate-300">{FOOTER_LABELS[c.kind]}:</span>
                {!c.configured ? (
                  <span className="italic" title={`The operator sets ${c.setting} (docs/configuration.md)`}>
                    {NOT_CONFIGURED} ({c.setting})
                  </span>
                ) : c.href ? (
                  <a href={c.href} className={linkClass}>
                    {c.text}
                  </a>
                ) : (
                  <span>{c.text}</span>
                )}
              </li>
            ))}
          </FooterList>
        )}
      </div>
      <div className="border-t border-slate-200 dark:border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-4 text-xs text-slate-500 sm:px-6 dark:text-slate-500">
          © {new Date().getFullYear()} {site?.pool_name}. Runs on Lodestone, open-source mining pool software.
        </p>
      </div>
    </footer>
  );
}

function FooterList({ title, className = '', children }: { title: string; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <h2 className="text-xs font-semibold tracking-wider text-slate-900 uppercase dark:text-white">{title}</h2>
      <ul className="mt-3 space-y-2">{children}</ul>
    </div>
  );
}

/** One of the site links; an external one that is not configured is left out. */
function SiteLink({ link }: { link: FooterLink }) {
  if ('to' in link) {
    return (
      <li>
        <Link to={link.to} className={linkClass}>
          {link.label}
        </Link>
      </li>
    );
  }
  if (!link.href) return null;
  return (
    <li>
      <ExternalLink href={link.href}>{link.label}</ExternalLink>
    </li>
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={`inline-flex items-center gap-1 ${linkClass}`}>
      {children}
      <ExternalLinkIcon className="size-3.5" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
