import type { ChartPeriod, ProfitPeriod } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import type { DashboardSource, WorkerChartPeriod, WorkersPageAsk } from './dashboard';

/**
 * Every TanStack Query key of the website, in one factory, so a page that refreshes or drops data
 * names it the way the hook that fetched it did. Everything that belongs to the logged-in user
 * lives under USER_QUERY_ROOT, which login, logout and login-as drop as a whole.
 */
export const USER_QUERY_ROOT = ['user'] as const;

/** Who a dashboard looks at: the miner's account (under USER_QUERY_ROOT), or an observer key. */
function sourceRoot(source: DashboardSource) {
  return source.kind === 'user'
    ? ([...USER_QUERY_ROOT, 'dashboard', source.account] as const)
    : (['observer', source.observerKey] as const);
}

export const queryKeys = {
  // ── every page
  poolStats: ['pool', 'stats'] as const,
  banner: ['banner'] as const,
  site: ['site'] as const,
  stratum: ['pool', 'stratum'] as const,
  userInfo: [...USER_QUERY_ROOT, 'info'] as const,
  coins: ['coins'] as const,

  // ── public pages
  algorithmStats: (a: AlgorithmKey) => ['pool', 'stats', a] as const,
  /** The period last: a chart keeps its answer on screen while another period loads (api/placeholder.ts). */
  statsChart: (a: AlgorithmKey, tz: string, period: ChartPeriod) => ['pool', 'stats', a, 'chart', tz, period] as const,
  /** One page of a chain's blocks; `coin` null is the algorithm's own coin. */
  blocks: (a: AlgorithmKey, coin: string | null, page: number) => ['pool', 'blocks', a, coin, page] as const,
  profits: (a: AlgorithmKey) => ['pool', 'profits', a] as const,
  profitChart: (a: AlgorithmKey, period: ProfitPeriod, tz: string) =>
    ['pool', 'profits', a, 'chart', period, tz] as const,
  fees: ['pool', 'fees'] as const,
  schemes: ['pool', 'schemes'] as const,
  poolPayouts: ['pool', 'payouts'] as const,
  signature: (signature: string) => ['signature', signature] as const,
  openApi: ['openapi'] as const,

  // ── account screens
  config: [...USER_QUERY_ROOT, 'config'] as const,
  accounts: [...USER_QUERY_ROOT, 'accounts'] as const,
  redirect: (account: string) => [...USER_QUERY_ROOT, 'redirect', account] as const,
  referrals: (account: string) => [...USER_QUERY_ROOT, 'referrals', account] as const,
  twoFactorSecret: [...USER_QUERY_ROOT, '2fa', 'secret'] as const,
  telegram: [...USER_QUERY_ROOT, 'telegram'] as const,
  sessions: [...USER_QUERY_ROOT, 'sessions'] as const,
  watchers: (account: string) => [...USER_QUERY_ROOT, 'watchers', account] as const,
  hashrateAlerts: (account: string) => [...USER_QUERY_ROOT, 'hashrateAlerts', account] as const,

  // ── dashboard (the miner's and the observer's)
  /** Everything one dashboard shows, to refresh it all after a change. */
  dashboard: sourceRoot,
  mining: (s: DashboardSource, a: AlgorithmKey) => [...sourceRoot(s), 'mining', a] as const,
  /** The charts' period last, as in statsChart. */
  miningChart: (s: DashboardSource, a: AlgorithmKey, tz: string, period: ChartPeriod) =>
    [...sourceRoot(s), 'miningChart', a, tz, period] as const,
  /** What the table asks last, as the charts' period: the page shown stays while the next loads. */
  workersPage: (s: DashboardSource, a: AlgorithmKey, ask: WorkersPageAsk) =>
    [...sourceRoot(s), 'workersPage', a, ask] as const,
  worker: (s: DashboardSource, a: AlgorithmKey, id: string) => [...sourceRoot(s), 'worker', a, id] as const,
  workerRejects: (s: DashboardSource, a: AlgorithmKey, id: string) =>
    [...sourceRoot(s), 'workerRejects', a, id] as const,
  /** The period last, as in miningChart. */
  workerChart: (s: DashboardSource, a: AlgorithmKey, id: string, tz: string, period: WorkerChartPeriod) =>
    [...sourceRoot(s), 'workerChart', a, id, tz, period] as const,
  workerConnections: (s: DashboardSource, a: AlgorithmKey, id: string) =>
    [...sourceRoot(s), 'workerConnections', a, id] as const,
  solo: (s: DashboardSource, a: AlgorithmKey) => [...sourceRoot(s), 'solo', a] as const,
  balances: (s: DashboardSource) => [...sourceRoot(s), 'balances'] as const,
  payouts: (s: DashboardSource, tz: string) => [...sourceRoot(s), 'payouts', tz] as const,
  earnings: (s: DashboardSource, a: AlgorithmKey, tz: string) => [...sourceRoot(s), 'earnings', a, tz] as const,
  lifetime: (s: DashboardSource, a: AlgorithmKey, tz: string) => [...sourceRoot(s), 'lifetime', a, tz] as const,
  revenueChart: (s: DashboardSource, a: AlgorithmKey, tz: string, period: ChartPeriod) =>
    [...sourceRoot(s), 'revenueChart', a, tz, period] as const,
  conversion: (account: string) => [...USER_QUERY_ROOT, 'conversion', account] as const,
  payment: (account: string) => [...USER_QUERY_ROOT, 'payment', account] as const,
  /** Every account of the user on one algorithm (docs/dashboard.md, All accounts). */
  overview: (a: AlgorithmKey) => [...USER_QUERY_ROOT, 'overview', a] as const,

  // ── admin (under USER_QUERY_ROOT: dropped at login, logout and login-as)
  adminUsers: [...USER_QUERY_ROOT, 'admin', 'users'] as const,
  adminLogs: <S>(search: S) => [...USER_QUERY_ROOT, 'admin', 'logs', search] as const,
  adminTreasury: [...USER_QUERY_ROOT, 'admin', 'treasury'] as const,
};
