import { pageOf } from '@lodestone/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { type Key, useState } from 'react';
import { type Column, DataTable } from '../../../components/DataTable';
import { LoadState } from '../../../components/LoadState';
import { Pager } from '../../../components/sections';
import { DASHBOARD_RETRY } from '../queries';
import { CsvButton } from './CsvButton';
import { NotShared, notSharedText } from './NotShared';
import { REVENUE_PAGE_SIZE } from './pageSize';
import { SubHeading } from './SubHeading';

/**
 * A past-records block of the revenue tab (payments, earnings): its heading with the CSV download (the miner only:
 * `csv` is undefined for an observer), the records a page at a time, or the load state. `name` is the block's test id
 * and what its load state names; the table, pager and button are `{name}-table`, `{name}-page` and `{name}-csv`. Records
 * an observer's link does not share are `{name}-not-shared`, the server's reason.
 */
export function PagedHistory<T>({
  name,
  title,
  query,
  csv,
  columns,
  rowKey,
  rowTestId,
  empty,
}: {
  name: string;
  title: string;
  query: UseQueryResult<readonly T[]>;
  csv: { fileName: string; fetchFile: () => Promise<Blob | null> } | undefined;
  columns: readonly Column<T>[];
  rowKey: (row: T) => Key;
  rowTestId: string;
  empty: string;
}) {
  const [page, setPage] = useState(1);
  const { rows, window: paging } = pageOf(query.data ?? [], REVENUE_PAGE_SIZE, page);
  // An observer's link that shows revenue but not payouts (docs/dashboard.md, Watcher links).
  const notShared = notSharedText(query.error);
  return (
    <div data-testid={name}>
      <SubHeading
        title={title}
        action={
          csv && (
            <CsvButton label="Download CSV" fileName={csv.fileName} testId={`${name}-csv`} fetchFile={csv.fetchFile} />
          )
        }
      />
      {query.data ? (
        <>
          <DataTable
            testId={`${name}-table`}
            columns={columns}
            rows={rows}
            rowKey={rowKey}
            rowTestId={rowTestId}
            empty={empty}
          />
          <Pager window={paging} onPage={setPage} testId={`${name}-page`} label={title} />
        </>
      ) : notShared ? (
        <NotShared text={notShared} testId={`${name}-not-shared`} />
      ) : (
        <LoadState retry={DASHBOARD_RETRY} isPending={query.isPending} error={query.error} what={name} />
      )}
    </div>
  );
}
