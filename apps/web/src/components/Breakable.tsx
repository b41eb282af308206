import { Fragment } from 'react';

/**
 * Text that may wrap only at the points `at` matches (zero-width: a split before a dot, after an @),
 * never inside a word, nor at a hyphen the browser would otherwise choose: each part is unbreakable
 * and a <wbr> stands between parts. For e-mails and dotted paths in narrow cells; the text reads and
 * copies as it is.
 */
export function Breakable({ text, at }: { text: string; at: RegExp }) {
  const parts = text.split(at);
  return (
    <span>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <span className="whitespace-nowrap">{part}</span>
        </Fragment>
      ))}
    </span>
  );
}

/** An e-mail wraps after the @ or before a dot. */
export const EMAIL_BREAKS = /(?=\.)|(?<=@)/;

/** An API field's path wraps after a dot, a bar or a brace, never inside a name. */
export const PATH_BREAKS = /(?<=[.|{])/;
