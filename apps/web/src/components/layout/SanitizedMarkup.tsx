import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { stripEventHandlers } from '../../lib/markup';

/**
 * Markup from the server (the banner text), cleaned by DOMPurify before it enters the page: no
 * scripts, no event handlers, no javascript: links. Links that open a new tab get rel="noopener".
 * Loaded on demand, so DOMPurify is only downloaded when there is markup to show.
 */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('target') === '_blank') {
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** A one-line bar: text-level markup and links only (an image or a table has no place in it). */
const INLINE = {
  ALLOWED_TAGS: ['a', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'mark', 'code', 'span', 'br'],
  ALLOWED_ATTR: ['href', 'target', 'title'],
};

export default function SanitizedMarkup({
  html,
  inline = false,
  className,
}: {
  html: string;
  /** Keep only text-level markup and links. */
  inline?: boolean;
  className?: string;
}) {
  const clean = useMemo(
    // stripEventHandlers only keeps Chromium from reporting CSP violations while DOMPurify parses.
    () => DOMPurify.sanitize(stripEventHandlers(html), inline ? INLINE : { ADD_ATTR: ['target'] }),
    [html, inline],
  );
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above.
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
