import type {
  ChartResponse,
  CoinsResponse,
  ConversionConfigResponse,
  ConvertResponse,
  LifetimeEarningsResponse,
  MiningRemoveResponse,
  MiningSummaryResponse,
  MiningWorkersResponse,
  PaymentConfigResponse,
  ResultResponse,
  RevenueBalanceResponse,
  RevenueEarningsResponse,
  RevenuePayoutsResponse,
} from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import { setIsLoggedIn } from '../state/hooks';
import { apiUrl, request, requestResult } from './client';
import { apiErrorFrom, networkError } from './errors';
import { redirectToLogin, shouldRedirectToLogin, unauthorizedAction } from './unauthorized';

/**
 * The dashboard's calls (spec 7 "Dashboard" and "Observer"). The miner's dashboard names one of the
 * user's accounts (`account_name`, session cookie); the observer dashboard names the account by its
 * read-only observer key and calls the `/observer/...` twins, which answer the same bodies. Pages
 * pass a DashboardSource and never build either kind of path themselves.
 */
export type DashboardSource = { kind: 'user'; account: string } | { kind: 'observer'; observerKey: string };

interface Scope {
  prefix: '/user' | '/observer';
  query: Record<string, string>;
}

function scope(source: DashboardSource): Scope {
  return source.kind === 'user'
    ? { prefix: '/user', query: { account_name: source.account } }
    : { prefix: '/observer', query: { observer_key: source.observerKey } };
}

function get<T>(source: DashboardSource, path: string, extra: Record<string, string>, signal?: AbortSignal) {
  const { prefix, query } = scope(source);
  return request<T>(`${prefix}${path}`, { query: { ...query, ...extra }, signal });
}

// ── mining ──────────────────────────────────────────────────────────────────────────────────────

export function getMiningSummary(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  signal?: AbortSignal,
): Promise<MiningSummaryResponse> {
  return get(source, '/mining', { algorithm }, signal);
}

export function getMiningChart(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  timezone: string,
  signal?: AbortSignal,
): Promise<ChartResponse> {
  return get(source, '/mining/chart', { algorithm, timezone }, signal);
}

export function getWorkers(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  signal?: AbortSignal,
): Promise<MiningWorkersResponse> {
  return get(source, '/mining/workers', { algorithm }, signal);
}

/** GET user/mining/workers/removeall (account_name, algorithm): forgets the account's offline workers. */
export function removeOfflineWorkers(account: string, algorithm: AlgorithmKey): Promise<MiningRemoveResponse> {
  return requestResult('/user/mining/workers/removeall', { query: { account_name: account, algorithm } });
}

/** GET user/mining/workers/remove/{workerId} (account_name, algorithm): forgets one worker. */
export function removeWorker(
  account: string,
  algorithm: AlgorithmKey,
  workerId: string,
): Promise<MiningRemoveResponse> {
  return requestResult(`/user/mining/workers/remove/${encodeURIComponent(workerId)}`, {
    query: { account_name: account, algorithm },
  });
}

// ── revenue ─────────────────────────────────────────────────────────────────────────────────────

export function getBalances(source: DashboardSource, signal?: AbortSignal): Promise<RevenueBalanceResponse> {
  return get(source, '/revenue/balance', {}, signal);
}

export function getPayouts(
  source: DashboardSource,
  timezone: string,
  signal?: AbortSignal,
): Promise<RevenuePayoutsResponse> {
  return get(source, '/revenue/payouts', { timezone }, signal);
}

export function getEarnings(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  timezone: string,
  signal?: AbortSignal,
): Promise<RevenueEarningsResponse> {
  return get(source, '/revenue/earnings', { algorithm, timezone }, signal);
}

export function getLifetimeEarnings(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  timezone: string,
  signal?: AbortSignal,
): Promise<LifetimeEarningsResponse> {
  return get(source, '/revenue/lifetimeearnings', { algorithm, timezone }, signal);
}

export function getRevenueChart(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  timezone: string,
  signal?: AbortSignal,
): Promise<ChartResponse> {
  return get(source, '/revenue/chart', { algorithm, timezone }, signal);
}

// ── downloads (miner only: the observer calls of spec 7 have none) ──────────────────────────────

/**
 * A file answer (PDF, CSV). Resolves to null when the server sent an empty body (spec 8 'No data
 * received from the server.'); throws an ApiError for a refusal, after the usual 401 handling.
 */
export async function downloadFile(
  path: string,
  query: Record<string, string>,
  signal?: AbortSignal,
): Promise<Blob | null> {
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), { credentials: 'include', signal: signal ?? null });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw networkError(cause);
  }
  if (response.status === 401) {
    setIsLoggedIn(false);
    if (shouldRedirectToLogin(unauthorizedAction(path), window.location.pathname)) redirectToLogin();
  }
  if (!response.ok) throw apiErrorFrom(response.status, await response.json().catch(() => undefined));
  const blob = await response.blob();
  return blob.size > 0 ? blob : null;
}

/** GET user/revenue/earnings/download (account_name, date YYYY-MM): the monthly PDF statement. */
export function downloadStatement(account: string, month: string, timezone: string): Promise<Blob | null> {
  return downloadFile('/user/revenue/earnings/download', { account_name: account, date: month, timezone });
}

/** GET user/revenue/earnings/csv (account_name, algorithm): daily earnings. */
export function downloadEarningsCsv(account: string, algorithm: AlgorithmKey, timezone: string): Promise<Blob | null> {
  return downloadFile('/user/revenue/earnings/csv', { account_name: account, algorithm, timezone });
}

/** GET user/revenue/payouts/csv (account_name): the account's payments. */
export function downloadPayoutsCsv(account: string, timezone: string): Promise<Blob | null> {
  return downloadFile('/user/revenue/payouts/csv', { account_name: account, timezone });
}

// ── settings (miner only) ───────────────────────────────────────────────────────────────────────

/** GET /coins: the payout coin catalogue with prices, bounds and explorer links (docs/money.md). */
export function getCoins(signal?: AbortSignal): Promise<CoinsResponse> {
  return request('/coins', { signal });
}

export function getConversionConfig(account: string, signal?: AbortSignal): Promise<ConversionConfigResponse> {
  return request('/user/conversion_config', { query: { account_name: account }, signal });
}

/** POST user/conversion_config/update?account_name= (conversion_settings JSON, all_algorithms). */
export function updateConversionConfig(
  account: string,
  settings: unknown,
  allAlgorithms: boolean,
): Promise<ResultResponse> {
  const form = new FormData();
  form.set('conversion_settings', JSON.stringify(settings));
  form.set('all_algorithms', String(allAlgorithms));
  return requestResult('/user/conversion_config/update', { method: 'POST', form, query: { account_name: account } });
}

export function getPaymentConfig(account: string, signal?: AbortSignal): Promise<PaymentConfigResponse> {
  return request('/user/payment_config', { query: { account_name: account }, signal });
}

/**
 * POST user/payment_config/update?account_name= (payment_settings JSON, and password and code when
 * addresses change): replaces the account's payout settings. The form is built by payoutForm.ts.
 */
export function updatePaymentConfig(account: string, form: FormData): Promise<ResultResponse> {
  return requestResult('/user/payment_config/update', { method: 'POST', form, query: { account_name: account } });
}

/** POST user/convert?account_name= (base_coin, target_coin): the whole balance of base_coin becomes target_coin. */
export function convertBalance(account: string, baseCoin: string, targetCoin: string): Promise<ConvertResponse> {
  const form = new FormData();
  form.set('base_coin', baseCoin);
  form.set('target_coin', targetCoin);
  return requestResult('/user/convert', { method: 'POST', form, query: { account_name: account } });
}
