/**
 * Links built from the operator's configuration (GET /v1/site). They are trusted text, but a
 * `javascript:` URL in a config file must still never become a clickable link.
 */
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The URL as an href when it is an absolute http(s) or mailto URL, otherwise null (the link is not shown). */
export function safeExternalUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url.trim());
    return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

/** "tel:+4930123456" from "+49 30 123 456"; null when there are no digits. */
export function telHref(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (digits === '') return null;
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

/** "mailto:support@example.org"; null unless the text looks like one e-mail address. */
export function mailtoHref(email: string | null | undefined): string | null {
  if (!email) return null;
  const trimmed = email.trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) ? `mailto:${trimmed}` : null;
}
