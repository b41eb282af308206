/**
 * Removes event-handler attributes (onerror=…, onclick, …) from the tags of a markup string, before
 * the markup reaches any HTML parser. This is NOT the sanitizer — DOMPurify is, and it runs on the
 * result. It exists because Chromium reports a Content-Security-Policy violation for every inline
 * handler it parses, even in the inert document DOMPurify parses into, so a hostile banner would
 * otherwise fill the console with CSP errors although nothing ever runs. Only removes text, so
 * whatever it returns is still sanitized as before.
 */
const TAG = /<[a-z][^\s/>]*(?:"[^"]*"|'[^']*'|[^'">])*>/gi;
const TAG_NAME = /^<[a-z][^\s/>]*/i;
/** Separators, a name, and an optional value (double-, single- or unquoted), as HTML reads attributes. */
const ATTRIBUTE = /([\s/]*)([^\s/>=]+)(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?/y;

export function stripEventHandlers(html: string): string {
  return html.replace(TAG, stripTag);
}

function stripTag(tag: string): string {
  let out = TAG_NAME.exec(tag)?.[0] ?? '';
  let index = out.length;
  const end = tag.length - 1; // the closing ">"
  while (index < end) {
    ATTRIBUTE.lastIndex = index;
    const match = ATTRIBUTE.exec(tag);
    if (!match || match.index !== index) {
      out += tag.slice(index, end);
      break;
    }
    const [whole, separators = '', name = ''] = match;
    out += /^on/i.test(name) ? separators : whole;
    index += whole.length;
  }
  return `${out}>`;
}
