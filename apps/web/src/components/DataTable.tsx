import type { AriaAttributes, HTMLAttributes, Key, ReactNode } from 'react';

/**
 * The site's data tables. Wide screens get a plain table; where the table's own frame is narrow (a
 * phone) each row becomes a card of label/value lines (the `stacked` utility in index.css), so no
 * column is ever scrolled out of sight and no amount is squeezed. Which columns a phone shows, and
 * how, is decided per column (`phone`), so every table follows the same rules (docs/website.md,
 * "Phones").
 */

export const tableClass = 'min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800';
export const headerCellClass =
  'px-3 py-2.5 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase dark:text-slate-400';
export const cellClass = 'px-3 py-2.5 whitespace-nowrap tabular-nums';

/**
 * How a column shows on a phone: `primary` heads the row's card without a label (the row's name),
 * `hide` leaves it out (a detail a phone can do without, like a pool's URL); by default it is one
 * "label … value" line of the card.
 */
export type PhonePresentation = 'primary' | 'hide';

/** Below which width of its frame a table turns into cards: `md` 48rem (most tables), `sm` 28rem. */
export type StackBelow = 'md' | 'sm';

/**
 * The attributes of one cell for the phone presentation. DataTable sets them itself; tables with a
 * look of their own (the home page's pool table, the admin's users) use `stackClasses` on their frame
 * and table and spread these on their cells.
 */
export function phoneCell(label: string, phone?: PhonePresentation): { 'data-label'?: string; 'data-phone'?: string } {
  if (phone === 'primary') return { 'data-phone': 'primary' };
  if (phone === 'hide') return { 'data-label': label, 'data-phone': 'hide' };
  return { 'data-label': label };
}

/**
 * The classes of a table's frame (a size container) and of the table for the phone presentation:
 * the table stacks (`stacked`, index.css) where its frame is narrower than 48rem, or 28rem for `sm`.
 * Written out whole so that Tailwind finds them.
 */
export function stackClasses(below: StackBelow = 'md'): { frame: string; table: string } {
  return { frame: '@container', table: below === 'md' ? '@max-3xl:stacked' : '@max-md:stacked' };
}

/** One column of DataTable. */
export interface Column<T> {
  label: string;
  /** Numbers are right-aligned. */
  align?: 'right';
  phone?: PhonePresentation;
  /** The row's name: a <th scope="row">. */
  rowHeader?: boolean;
  /** What the heading shows when it is more than the label (a sort button); the label stays its name. */
  heading?: ReactNode;
  ariaSort?: AriaAttributes['aria-sort'];
  testId?: string;
  /** Extra classes of the cells (and the heading) of this column. */
  className?: string;
  title?: (item: T) => string | undefined;
  cell: (item: T) => ReactNode;
}

/** A row spanning the whole table: empty lists and "no match". */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-3 py-8 text-center text-slate-500 dark:text-slate-400">
        {children}
      </td>
    </tr>
  );
}

/**
 * A table with one heading row and a row per item, or one `empty` row spanning the table when there
 * are none. On a phone the rows are cards (see above); elsewhere a table too wide for its frame
 * scrolls inside it, never the page.
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
  className = 'mt-3',
  tableClassName = tableClass,
  stackBelow = 'md',
}: {
  testId: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (item: T, index: number) => Key;
  rowTestId?: string | ((item: T) => string);
  /** Attributes of a row (a row that opens something is clickable and focusable). */
  rowProps?: (item: T) => HTMLAttributes<HTMLTableRowElement>;
  empty: ReactNode;
  caption?: string;
  className?: string;
  tableClassName?: string;
  /** `false`: a table small enough for any phone (two short columns) stays a table. */
  stackBelow?: StackBelow | false;
}) {
  const stack = stackBelow === false ? null : stackClasses(stackBelow);
  const frame = [className, 'overflow-x-auto', stack?.frame].filter(Boolean).join(' ');
  return (
    <div className={frame}>
      <table className={stack ? `${tableClassName} ${stack.table}` : tableClassName} data-testid={testId}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.label}
                scope="col"
                aria-sort={c.ariaSort}
                data-phone={c.phone}
                className={[headerCellClass, c.align === 'right' && 'text-right', c.className]
                  .filter(Boolean)
                  .join(' ')}
              >
                {c.heading ?? c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.length === 0 ? (
            <EmptyRow colSpan={columns.length}>{empty}</EmptyRow>
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
                        cellClass,
                        c.align === 'right' ? 'text-right' : 'text-left',
                        c.rowHeader && 'font-semibold',
                        c.className,
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
