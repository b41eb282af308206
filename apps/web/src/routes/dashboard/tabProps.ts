import type { AlgorithmKey } from '@lodestone/domain';
import type { DashboardSource } from '../../api/dashboard';
import type { ChartRange } from './charts/ChartSection';

/**
 * What a dashboard page gives each of its tabs: whose figures, on which algorithm, the range of the tab's chart (held by
 * the page), and what only the miner may do on the tab (none on the observer dashboard, which is read-only).
 */
export interface DashboardTabProps<Actions> {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  chartRange: ChartRange;
  actions?: Actions;
}
