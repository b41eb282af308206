import type { ChartPeriod, RouteName, RouteResponse, WorkerChartPeriod } from '@lodestone/contract';
import type { AlgorithmKey, WorkersFilterAsk, WorkersPageAsk } from '@lodestone/domain';
import { call, callResult, send } from './client';
import { apiErrorFrom } from './errors';

/**
 * The dashboard's calls (docs/dashboard.md, Mining API and Revenue API). The miner's dashboard names one of the
 * user's accounts (`account_name`, session cookie); the observer dashboard names the account by its
 * read-only observer key and calls the `/observer/...` twins, which answer the same bodies. Pages
 * pass a DashboardSource and never pick either kind of call themselves.
 */
export type DashboardSource = { kind: 'user'; account: string } | { kind: 'observer'; observerKey: string };

export type { WorkerChartPeriod } from '@lodestone/contract';
export type { WorkersPageAsk } from '@lodestone/domain';

/** What a dashboard panel shows: whose figures, on which algorithm, with days in which time zone. */
export interface DashboardView {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  timezone: string;
}

/** Each dashboard read and its two calls in the contract's table: the miner's and the observer's. */
const twins = {
  mining: { user: 'userMining', observer: 'observerMining' },
  miningChart: { user: 'userMiningChart', observer: 'observerMiningChart' },
  workersPage: { user: 'userMiningWorkersPage', observer: 'observerMiningWorkersPage' },
  worker: { user: 'userMiningWorker', observer: 'observerMiningWorker' },
  workerRejects: { user: 'userMiningWorkerRejects', observer: 'observerMiningWorkerRejects' },
  workerChart: { user: 'userMiningWorkerChart', observer: 'observerMiningWorkerChart' },
  workerConnections: { user: 'userMiningWorkerConnections', observer: 'observerMiningWorkerConnections' },
  solo: { user: 'userMiningSolo', observer: 'observerMiningSolo' },
  balances: { user: 'userRevenueBalance', observer: 'observerRevenueBalance' },
  payouts: { user: 'userRevenuePayouts', observer: 'observerRevenuePayouts' },
  earnings: { user: 'userRevenueEarnings', observer: 'observerRevenueEarnings' },
  lifetime: { user: 'userRevenueLifetimeEarnings', observer: 'observerRevenueLifetimeEarnings' },
  revenueChart: { user: 'userRevenueChart', observer: 'observerRevenueChart' },
} as const;
type Twin = keyof typeof twins;

/** Who is looked at, as the twin's query names it. */
function who(source: DashboardSource): Record<string, string> {
  return source.kind === 'user' ? { account_name: source.account } : { observer_key: source.observerKey };
}

/**
 * One read of a twin pair. Both answer the same body (the contract gives both the same response
 * schema), so the miner's call types the answer; the query is the source's key plus `extra`.
 */
function read<T extends Twin>(
  twin: T,
  source: DashboardSource,
  extra: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<RouteResponse<(typeof twins)[T]['user']>> {
  const name: RouteName = twins[twin][source.kind];
  // The twins' queries differ only in the key `who` sets, which the type of one call cannot say;
  // the server checks the query against its schema.
  return call(name, { query: { ...who(source), ...extra }, signal } as never) as Promise<
    RouteResponse<(typeof twins)[T]['user']>
  >;
}

// ── mining ──────────────────────────────────────────────────────────────────────────────────────

export function getMiningSummary(source: DashboardSource, algorithm: AlgorithmKey, signal?: AbortSignal) {
  return read('mining', source, { algorithm }, signal);
}

/** The account's hashrate over `period` (docs/dashboard.md, Chart ranges). */
export function getMiningChart(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  period: ChartPeriod,
  timezone: string,
  signal?: AbortSignal,
) {
  return read('miningChart', source, { algorithm, period, timezone }, signal);
}

/**
 * GET user/mining/workers/matching: every worker the table's filters and search keep, as a bulk action names them
 * ("Select all N matching"): the miner's own accounts only, since only they act on workers.
 */
export function getWorkersMatching(account: string, algorithm: AlgorithmKey, ask: WorkersFilterAsk) {
  return call('userMiningWorkersMatching', { query: { account_name: account, algorithm, ...ask } });
}

/** One page of the workers table, with the counts its filters show. */
export function getWorkersPage(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  ask: WorkersPageAsk,
  signal?: AbortSignal,
) {
  const { page, sort, search, state, group } = ask;
  const order: Record<string, string> = sort ? { sort: sort.column, direction: sort.direction } : {};
  return read('workersPage', source, { algorithm, page: String(page), search, state, group, ...order }, signal);
}

/** One worker's row of the list, for its own view (docs/dashboard.md, One worker). */
export function getWorker(source: DashboardSource, algorithm: AlgorithmKey, workerId: string, signal?: AbortSignal) {
  return read('worker', source, { algorithm, worker_id: workerId }, signal);
}

/** One worker's refused shares of the last 24 hours by reason (docs/dashboard.md, Workers). */
export function getWorkerRejects(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  workerId: string,
  signal?: AbortSignal,
) {
  return read('workerRejects', source, { algorithm, worker_id: workerId }, signal);
}

/** One worker's hashrate over `period`: 24 hours or 7 days, what its hour rows keep. */
export function getWorkerChart(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  workerId: string,
  period: WorkerChartPeriod,
  timezone: string,
  signal?: AbortSignal,
) {
  return read('workerChart', source, { algorithm, worker_id: workerId, period, timezone }, signal);
}

/** One worker's connects and disconnects, newest first. */
export function getWorkerConnections(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  workerId: string,
  signal?: AbortSignal,
) {
  return read('workerConnections', source, { algorithm, worker_id: workerId }, signal);
}

/** The account's solo mining on the algorithm (docs/dashboard.md, Solo mining): odds, round, solo workers and blocks. */
export function getMiningSolo(source: DashboardSource, algorithm: AlgorithmKey, signal?: AbortSignal) {
  return read('solo', source, { algorithm }, signal);
}

/** POST user/mining/workers/label (ids, label): labels the chosen workers; an empty label takes theirs off. */
export function labelWorkers(account: string, algorithm: AlgorithmKey, ids: readonly string[], label: string) {
  const form = new FormData();
  form.set('ids', ids.join(','));
  form.set('label', label);
  return callResult('userMiningWorkersLabel', { form, query: { account_name: account, algorithm } });
}

/** POST user/mining/workers/remove_selected (ids): forgets the chosen workers. */
export function removeSelectedWorkers(account: string, algorithm: AlgorithmKey, ids: readonly string[]) {
  const form = new FormData();
  form.set('ids', ids.join(','));
  return callResult('userMiningWorkersRemoveSelected', { form, query: { account_name: account, algorithm } });
}

/** GET user/mining/workers/removeall (account_name, algorithm): forgets the account's offline workers. */
export function removeOfflineWorkers(account: string, algorithm: AlgorithmKey) {
  return callResult('userMiningWorkersRemoveAll', { query: { account_name: account, algorithm } });
}

/** GET user/mining/workers/remove/{workerId} (account_name, algorithm): forgets one worker. */
export function removeWorker(account: string, algorithm: AlgorithmKey, workerId: string) {
  return callResult('userMiningWorkerRemove', {
    params: { workerId },
    query: { account_name: account, algorithm },
  });
}

// ── revenue ─────────────────────────────────────────────────────────────────────────────────────

export function getBalances(source: DashboardSource, signal?: AbortSignal) {
  return read('balances', source, {}, signal);
}

export function getPayouts(source: DashboardSource, timezone: string, signal?: AbortSignal) {
  return read('payouts', source, { timezone }, signal);
}

export function getEarnings(source: DashboardSource, algorithm: AlgorithmKey, timezone: string, signal?: AbortSignal) {
  return read('earnings', source, { algorithm, timezone }, signal);
}

export function getLifetimeEarnings(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  timezone: string,
  signal?: AbortSignal,
) {
  return read('lifetime', source, { algorithm, timezone }, signal);
}

/** The account's revenue over `period` (docs/dashboard.md, Chart ranges). */
export function getRevenueChart(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  period: ChartPeriod,
  timezone: string,
  signal?: AbortSignal,
) {
  return read('revenueChart', source, { algorithm, period, timezone }, signal);
}

// ── downloads (miner only: observers get none, docs/dashboard.md, Revenue API) ──────────────────────────────

/**
 * A file answer (PDF, CSV). Resolves to null when the server sent an empty body (the Revenue tab then says 'No data
 * received from the server.', docs/dashboard.md, Monthly statement); throws an ApiError for a refusal, after the usual
 * 401 handling.
 */
async function download(response: Promise<Response>): Promise<Blob | null> {
  const answer = await response;
  if (!answer.ok) throw apiErrorFrom(answer.status, await answer.json().catch(() => undefined));
  const blob = await answer.blob();
  return blob.size > 0 ? blob : null;
}

/** GET user/revenue/earnings/download (account_name, date YYYY-MM): the monthly PDF statement. */
export function downloadStatement(account: string, month: string, timezone: string): Promise<Blob | null> {
  return download(send('userRevenueEarningsDownload', { query: { account_name: account, date: month, timezone } }));
}

/** GET user/revenue/earnings/csv (account_name, algorithm): daily earnings. */
export function downloadEarningsCsv(account: string, algorithm: AlgorithmKey, timezone: string): Promise<Blob | null> {
  return download(send('userRevenueEarningsCsv', { query: { account_name: account, algorithm, timezone } }));
}

/** GET user/revenue/payouts/csv (account_name): the account's payments. */
export function downloadPayoutsCsv(account: string, timezone: string): Promise<Blob | null> {
  return download(send('userRevenuePayoutsCsv', { query: { account_name: account, timezone } }));
}

// ── settings (miner only) ───────────────────────────────────────────────────────────────────────

/** GET /coins: the payout coin catalogue with prices, bounds and explorer links (docs/money.md). */
export function getCoins(signal?: AbortSignal) {
  return call('coins', { signal });
}

export function getConversionConfig(account: string, signal?: AbortSignal) {
  return call('userConversionConfig', { query: { account_name: account }, signal });
}

/** POST user/conversion_config/update?account_name= (conversion_settings JSON, all_algorithms). */
export function updateConversionConfig(account: string, settings: unknown, allAlgorithms: boolean) {
  const form = new FormData();
  form.set('conversion_settings', JSON.stringify(settings));
  form.set('all_algorithms', String(allAlgorithms));
  return callResult('userConversionConfigUpdate', { form, query: { account_name: account } });
}

export function getPaymentConfig(account: string, signal?: AbortSignal) {
  return call('userPaymentConfig', { query: { account_name: account }, signal });
}

/**
 * POST user/payment_config/update?account_name= (payment_settings JSON, and password and code when
 * addresses change): replaces the account's payout settings. The form is built by payoutForm.ts.
 */
export function updatePaymentConfig(account: string, form: FormData) {
  return callResult('userPaymentConfigUpdate', { form, query: { account_name: account } });
}

/** POST user/convert?account_name= (base_coin, target_coin): the whole balance of base_coin becomes target_coin. */
export function convertBalance(account: string, baseCoin: string, targetCoin: string) {
  const form = new FormData();
  form.set('base_coin', baseCoin);
  form.set('target_coin', targetCoin);
  return callResult('userConvert', { form, query: { account_name: account } });
}
