import { algorithmByName } from '@lodestone/domain';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import type { DashboardSource } from '../../api/dashboard';
import { ApiError } from '../../api/errors';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useManifest } from '../../lib/useManifest';
import { useSelectedAlgorithm } from '../../state/hooks';
import { useChartRanges } from './charts/ChartSection';
import { DashboardFrame } from './DashboardFrame';
import { MiningTab } from './mining/MiningTab';
import { useMiningSummary } from './queries';
import { RevenueTab } from './revenue/RevenueTab';
import type { TabId } from './Tabs';

/**
 * The observer dashboard (/dashboard/{observerKey}, docs/dashboard.md, The screens): the same Mining and
 * Revenue tabs, read-only, without login. The key in the link names the account; the page offers
 * nothing that writes (no account selector, settings, conversions, worker removal, wizard or
 * downloads — observers get none, docs/dashboard.md, Revenue API). The algorithm is the site-wide selection.
 */
export default function ObserverDashboardPage() {
  useDocumentTitle('Observer Dashboard');
  const { observerKey = '' } = useParams();
  // Installed from here, the app opens this observer link, not the miner's /dashboard (which needs a login).
  useManifest(`/observer.webmanifest?key=${encodeURIComponent(observerKey)}`);
  const [algorithmName] = useSelectedAlgorithm();
  const algorithm = algorithmByName(algorithmName)?.key ?? 'scrypt';
  const [tab, setTab] = useState<TabId>('mining');
  const ranges = useChartRanges();
  const source = useMemo<DashboardSource>(() => ({ kind: 'observer', observerKey }), [observerKey]);

  // Every call names the account by the key: the first answer tells whether the link still works (an unknown, revoked
  // or expired watcher link is 404 alike; docs/dashboard.md, Watcher links). Figures beyond the link's scope are
  // refused each in its block (revenue/NotShared.tsx).
  const probe = useMiningSummary(source, algorithm);
  if (probe.error instanceof ApiError && probe.error.status === 404) {
    return (
      <DashboardFrame title="Observer Dashboard">
        <p role="alert" data-testid="observer-invalid" className="text-slate-700 dark:text-slate-300">
          This observer link does not work (any more): the account owner may have revoked it or replaced it with a new
          one, it may have expired, or the account was removed. Ask them for the current link.
        </p>
      </DashboardFrame>
    );
  }

  return (
    <DashboardFrame
      title="Observer Dashboard"
      subtitle="A read-only view of one mining account, shared through its observer link."
      tab={tab}
      onTab={setTab}
      mining={<MiningTab source={source} algorithm={algorithm} chartRange={ranges.hashrate} />}
      revenue={<RevenueTab source={source} algorithm={algorithm} chartRange={ranges.revenue} />}
    />
  );
}
