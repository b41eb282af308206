import { pageOf } from '@lodestone/domain';
import { useState } from 'react';
import type { DashboardView } from '../../../api/dashboard';
import { type Column, DataTable } from '../../../components/DataTable';
import { LoadState } from '../../../components/LoadState';
import { Pager } from '../../../components/sections';
import { formatLifetime } from '../../../lib/format';
import { DASHBOARD_RETRY, useLifetimeEarnings } from '../queries';
import { REVENUE_PAGE_SIZE } from './pageSize';
import { SubHeading } from './SubHeading';

/** Two short columns fit any phone: this one stays a table. */
const LIFETIME_COLUMNS: readonly Column<[string, string]>[] = [
  { label: 'Ticker', rowHeader: true, cell: ([ticker]) => ticker },
  { label: 'Amount', align: 'right', testId: 'lifetime-amount', cell: ([, amount]) => formatLifetime(amount) },
];

/** Lifetime earnings on the algorithm per coin, paged. */
export function Lifetime({ source, algorithm, timezone }: DashboardView) {
  const lifetime = useLifetimeEarnings(source, algorithm, timezone);
  const [page, setPage] = useState(1);
  const { rows, window: paging } = pageOf(Object.entries(lifetime.data ?? {}), REVENUE_PAGE_SIZE, page);
  return (
    <div data-testid="lifetime">
      <SubHeading title="Lifetime Earnings" />
      {lifetime.data ? (
        <>
          <DataTable
            testId="lifetime-table"
            columns={LIFETIME_COLUMNS}
            rows={rows}
            rowKey={([ticker]) => ticker}
            rowTestId={([ticker]) => `lifetime-${ticker}`}
            empty="No earnings on this algorithm yet."
            stackBelow={false}
          />
          <Pager window={paging} onPage={setPage} testId="lifetime-page" label="Lifetime earnings" />
        </>
      ) : (
        <LoadState
          retry={DASHBOARD_RETRY}
          isPending={lifetime.isPending}
          error={lifetime.error}
          what="lifetime earnings"
        />
      )}
    </div>
  );
}
