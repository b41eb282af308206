import type { AriaAttributes, HTMLAttributes, Key, ReactNode } from 'react';

/**
 * The site's one table: every list of the site is drawn with it. Wide screens get a plain table;
 * where the table's own frame is narrow (a phone) each row becomes a card of label/value lines (the
 * `stacked` utility in index.css), so no column is ever scrolled out of sight and no amount is
 * squeezed. Which columns a phone shows, and how, is decided per column (`phone`), so every table
 * follows the same rules (docs/website.md, "Phones").
 */

const tableClass = 'min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800';
const headerCellClass =
  'px-3 py-2.5 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase dark:text-slate-400';
const cellClass = 'px-3 py-2.5 whitespace-nowrap tabular-nums';
const bodyClass = 'divide-y divide-slate-100 dark:divide-slate-800';

/**
 * How a column shows on a phone: `primary` heads the row's card without a label (the row's name),
 * `hide` leaves it out (a detail a phone can do without, like a pool's URL), `end` is a line without
 * a label whose value sits at the end (a row's button); by default it is one "label … value" line of
 * the card.
 */
export type PhonePresentation = 'primary' | 'hide' | 'end';

/** Below which width of its frame a table turns into cards: `md` 48rem (most tables), `sm` 28rem. */
type StackBelow = 'md' | 'sm';

/** The attributes of one cell for the phone presentation. */
function phoneCell(label: string, phone?: PhonePresentation): { 'data-label'?: string; 'data-phone'?: string } {
  if (phone === 'primary' || phone === 'end') return { 'data-phone': phone };
  if (phone === 'hide') return { 'data-label': label, 'data-phone': 'hide' };
  return { 'data-label': label };
}

/** The table stacks (`stacked`, index.css) where its frame (a size container) is narrower than 48rem, or 28rem for `sm`. */
const STACK_TABLE: Record<StackBelow, string> = { md: '@max-3xl:stacked', sm: '@max-md:stacked' };

/** One column of DataTable. */
export interface Column<T> {
  label: string;
  /** Numbers are right-aligned. */
  align?: 'right';
  phone?: PhonePresentation;
  /** The row's name: a <th scope="row">. */
  rowHeader?: boolean;
  /** What the heading shows when it is more than the label (a sort button, a label only screen readers read). */
  heading?: ReactNode;
  ariaSort?: AriaAttributes['aria-sort'];
  testId?: string;
  /** Extra classes of the cells and the heading of this column (width, visibility, padding). */
  className?: string;
  /** Extra classes of the body cells only (their colour, rounded ends). */
  cellClassName?: string;
  title?: (item: T) => string | undefined;
  cell: (item: T) => ReactNode;
}

/**
 * A table with one heading row and a row per item, or one `empty` row spanning the table when there
 * are none. On a phone the rows are cards (see above); elsewhere a table too wide for its frame
 * scrolls inside it, never the page. The `*ClassName` props replace the default look of that part
 * (a boxed table with a shaded heading, a compact list in a card).
 */
export function DataTable<T>({
  testId,
  columns,
  rows,
  rowKey,
  rowTestId,
  rowProps,
  empty,
  caption,
  busy,
  className = 'mt-3',
  tableClassName = tableClass,
  headClassName,
  bodyClassName = bodyClass,
  headerCellClassName = headerCellClass,
  cellClassName = cellClass,
  stackBelow = 'md',
}: {
  testId?: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (item: T, index: number) => Key;
  rowTestId?: string | ((item: T) => string);
  /** Attributes of a row (a row that opens something is clickable and focusable). */
  rowProps?: (item: T) => HTMLAttributes<HTMLTableRowElement>;
  /** What the table says when there are no rows; without it an empty table has an empty body. */
  empty?: ReactNode;
  caption?: string;
  /** The rows are still loading (aria-busy). */
  busy?: boolean;
  /** Extra classes of the frame around the table. */
  className?: string;
  tableClassName?: string;
  headClassName?: string;
  bodyClassName?: string;
  headerCellClassName?: string;
  cellClassName?: string;
  /** `false`: a table small enough for any phone (two short columns) stays a table. */
  stackBelow?: StackBelow | false;
}) {
  const frame = [className, 'overflow-x-auto', stackBelow && '@container'].filter(Boolean).join(' ');
  return (
    <div className={frame}>
      <table
        className={stackBelow ? `${tableClassName} ${STACK_TABLE[stackBelow]}` : tableClassName}
        data-testid={testId}
        aria-busy={busy}
      >
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className={headClassName}>
          <tr>
            {columns.map((c) => (
              <th
                key={c.label}
                scope="col"
                aria-sort={c.ariaSort}
                data-phone={c.phone}
                className={[headerCellClassName, c.align === 'right' && 'text-right', c.className]
                  .filter(Boolean)
                  .join(' ')}
              >
                {c.heading ?? c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={bodyClassName}>
          {rows.length === 0 && empty !== undefined ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-8 text-center text-slate-500 dark:text-slate-400">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((item, index) => (
              <tr
                key={rowKey(item, index)}
                data-testid={typeof rowTestId === 'function' ? rowTestId(item) : rowTestId}
                {...rowProps?.(item)}
              >
                {columns.map((c) => {
                  const Cell = c.rowHeader ? 'th' : 'td';
                  return (
                    <Cell
                      key={c.label}
                      scope={c.rowHeader ? 'row' : undefined}
                      data-testid={c.testId}
                      title={c.title?.(item)}
                      className={[
                        cellClassName,
                        c.align === 'right' ? 'text-right' : 'text-left',
                        c.rowHeader && 'font-semibold',
                        c.className,
                        c.cellClassName,
                      ]
                        .filter(Boolean)
                        .join(' ')}
                      {...phoneCell(c.label, c.phone)}
                    >
                      {/* One element: on a phone the cell is a flex line of label and value, and a
                          value made of several pieces (a figure and its unit) must stay together. */}
                      <span className="min-w-0">{c.cell(item)}</span>
                    </Cell>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
