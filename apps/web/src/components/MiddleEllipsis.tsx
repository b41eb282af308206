import { CopyButton } from './CopyButton';

/** How many closing characters of a long identifier always stay in view. */
const TAIL = 8;

/**
 * A long identifier (a payout address) on one line. When it does not fit, its middle gives way to an
 * ellipsis and its last eight characters stay, so it can still be checked against a wallet; nothing
 * is wrapped into a column of fragments. The whole text is its title, what screen readers read and
 * what the copy button copies. The head is an inline-block, not a flex item, so the text still reads
 * (and copies by hand) as one word.
 */
export function MiddleEllipsis({ text, copyLabel }: { text: string; copyLabel?: string }) {
  const head = text.length > TAIL ? text.slice(0, -TAIL) : '';
  const tail = text.slice(head.length);
  return (
    <span className="inline-flex max-w-full min-w-0 items-center gap-1">
      <span className="block min-w-0 overflow-hidden font-mono text-xs whitespace-nowrap" title={text}>
        <span className="inline-block max-w-[calc(100%-8ch)] truncate align-bottom">{head}</span>
        {tail}
      </span>
      {copyLabel && <CopyButton compact text={text} label={copyLabel} />}
    </span>
  );
}
