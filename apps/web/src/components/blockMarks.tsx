import type { BlockRow } from '@lodestone/contract';
import type { ReactNode } from 'react';
import { blockStatusText } from '../lib/network';

/*
 * The marks of a found block, wherever blocks are listed (the Blocks page, the dashboard's solo panel;
 * docs/blocks.md): its status pill, its link to an explorer and the Solo badge of a solo block or worker
 * (docs/solo.md).
 */

const STATUS_CLASS: Record<BlockRow['status'], string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
  confirmed: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-300',
  orphaned: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300',
};

/** 'Pending — 3 confirmations left' in amber, 'Confirmed' in green, 'Orphaned' in red. */
export function BlockStatus({ block }: { block: Pick<BlockRow, 'status' | 'confirmations_left'> }) {
  return (
    <span
      data-status={block.status}
      className={`rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_CLASS[block.status]}`}
    >
      {blockStatusText(block)}
    </span>
  );
}

/** "Solo": a block found, or a worker mining, on a solo port; `title` says what it means where it stands. */
export function SoloBadge({ testId, title, tone }: { testId: string; title: string; tone: 'slate' | 'sky' }) {
  const colours =
    tone === 'sky'
      ? 'bg-sky-100 font-medium text-sky-800 dark:bg-sky-900/50 dark:text-sky-300'
      : 'bg-slate-200 font-semibold text-slate-800 dark:bg-slate-700 dark:text-slate-100';
  return (
    <span
      data-testid={testId}
      title={title}
      className={`rounded-full px-2 py-0.5 text-xs whitespace-nowrap ${colours}`}
    >
      Solo
    </span>
  );
}

/** A link to the block on a public explorer, opened in a new tab (and said so to screen readers). */
export function ExplorerLink({
  href,
  testId,
  className,
  children,
}: {
  href: string;
  testId: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-testid={testId} className={className}>
      {children}
      <span className="sr-only"> (opens the block in a new tab)</span>
    </a>
  );
}
