import type { ReactNode } from 'react';
import type { Column } from './DataTable';

/** A row's buttons: the last column, its heading read only by screen readers, at the end of the row's card on a phone. */
export function actionsColumn<T>(cell: (item: T) => ReactNode): Column<T> {
  return { label: 'Actions', heading: <span className="sr-only">Actions</span>, phone: 'end', align: 'right', cell };
}
