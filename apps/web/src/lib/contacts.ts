import type { SiteResponse } from '@lodestone/contract';
import { mailtoHref, safeExternalUrl, telHref } from './links';

export type ContactKind = 'email' | 'phone_eu' | 'phone_us' | 'chat';

/**
 * One contact of the operator as a page shows it. `configured: false` when GET /v1/site says null:
 * the setting is still at its built-in placeholder (support@example.com, +00 000 000 000, …), and the
 * page shows NOT_CONFIGURED naming the setting rather than a made-up address.
 */
export type Contact =
  | { kind: ContactKind; configured: true; text: string; href: string | null }
  | { kind: ContactKind; configured: false; setting: string };

const FIELDS: Record<ContactKind, { field: keyof SiteResponse; setting: string }> = {
  email: { field: 'support_email', setting: 'SUPPORT_EMAIL' },
  phone_eu: { field: 'phone_eu', setting: 'PHONE_EU' },
  phone_us: { field: 'phone_us', setting: 'PHONE_US' },
  chat: { field: 'chat_handle', setting: 'CHAT_HANDLE' },
};

/** What an unconfigured contact reads, for visitors and, above all, for the operator. */
export const NOT_CONFIGURED = 'not configured';

function href(kind: ContactKind, text: string): string | null {
  if (kind === 'email') return mailtoHref(text);
  // A configured URL becomes a link; a bare handle ("@pool") is shown as text to copy.
  if (kind === 'chat') return safeExternalUrl(text);
  return telHref(text);
}

/**
 * The operator's contacts of `kinds`, in that order: configured ones with their link, unconfigured
 * ones (null) as notes, and the ones the operator chose to hide (empty text) left out. Nothing while
 * the site information has not loaded.
 */
export function siteContacts(site: SiteResponse | undefined, kinds: readonly ContactKind[]): Contact[] {
  if (!site) return [];
  return kinds.flatMap((kind): Contact[] => {
    const { field, setting } = FIELDS[kind];
    const value = site[field];
    if (value === null) return [{ kind, configured: false, setting }];
    const text = typeof value === 'string' ? value.trim() : '';
    return text ? [{ kind, configured: true, text, href: href(kind, text) }] : [];
  });
}

/** The support e-mail contact alone (legal pages, Sats4Soup), or undefined when hidden or not loaded. */
export function supportEmail(site: SiteResponse | undefined): Contact | undefined {
  return siteContacts(site, ['email'])[0];
}
