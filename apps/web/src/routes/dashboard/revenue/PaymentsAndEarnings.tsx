import type { DashboardView } from '../../../api/dashboard';
import { Section } from '../../../components/sections';
import type { RevenueActions } from './actions';
import { Earnings } from './Earnings';
import { Lifetime } from './Lifetime';
import { Payments } from './Payments';
import { Statement } from './Statement';

/** The statement (the miner only), past payments, past earnings and lifetime earnings. */
export function PaymentsAndEarnings({
  source,
  algorithm,
  timezone,
  actions,
}: DashboardView & { actions: RevenueActions | undefined }) {
  return (
    <Section title="Payments and Earnings" testId="payments-and-earnings">
      <div className="space-y-8">
        {actions && <Statement account={actions.account} timezone={timezone} />}
        <Payments source={source} timezone={timezone} account={actions?.account} />
        <Earnings source={source} algorithm={algorithm} timezone={timezone} account={actions?.account} />
        <Lifetime source={source} algorithm={algorithm} timezone={timezone} />
      </div>
    </Section>
  );
}
