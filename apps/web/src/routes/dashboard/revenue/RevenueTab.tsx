import { useState } from 'react';
import { browserTimeZone } from '../../../lib/format';
import { DashboardChart } from '../charts/DashboardChart';
import { useBalances } from '../queries';
import type { DashboardTabProps } from '../tabProps';
import type { RevenueActions } from './actions';
import { Balances } from './Balances';
import { NotShared, notSharedText } from './NotShared';
import { PaymentsAndEarnings } from './PaymentsAndEarnings';

/**
 * The Revenue tab (docs/dashboard.md, The screens): revenue chart over the page's chosen period, the settings buttons,
 * the balances table and Payments and Earnings. Every figure comes from the revenue calls; nothing is computed here but the
 * dollar value of a balance (balance × the price the same answer carries) for display. An observer whose link does not
 * show revenue reads why instead.
 */
export function RevenueTab({ source, algorithm, chartRange, actions }: DashboardTabProps<RevenueActions>) {
  const [timezone] = useState(browserTimeZone);
  // An observer's link may show mining only (docs/dashboard.md, Watcher links): the balances' refusal (the Balances
  // block's own query) stands for the whole tab, in the server's words, in place of blocks that would all fail.
  const notShared = notSharedText(useBalances(source).error);
  if (notShared) return <NotShared text={notShared} testId="revenue-not-shared" />;
  return (
    <div className="space-y-6">
      <DashboardChart chart="revenue" source={source} algorithm={algorithm} timezone={timezone} range={chartRange} />
      <Balances source={source} actions={actions} />
      <PaymentsAndEarnings source={source} algorithm={algorithm} timezone={timezone} actions={actions} />
    </div>
  );
}
