import {
  accountListResponse,
  accountQuery,
  captchaChallengeResponse,
  couponBody,
  generate2faResponse,
  loginBody,
  logoutResponse,
  mostUsedAlgoResponse,
  newAccountBody,
  passwordResetBody,
  passwordResetSendBody,
  passwordResetSendQuery,
  redirectConfigResponse,
  redirectConfigUpdateBody,
  referralsResponse,
  regenerateKeyBody,
  regenerateKeyResponse,
  registerBody,
  removeAccountBody,
  resultResponse,
  setReferralQuery,
  twoFactorBody,
  twoFactorQrParams,
  userConfigResponse,
  userConfigUpdateBody,
  userInfoResponse,
} from './account.js';
import {
  adminBalanceBody,
  adminBalanceResponse,
  adminLoginBody,
  adminLogsAccountBody,
  adminLogsResponse,
  adminLogsUserBody,
  adminUsersResponse,
} from './admin.js';
import {
  miningChartQuery,
  miningQuery,
  miningRemoveResponse,
  miningSummaryResponse,
  miningWorkerParams,
  miningWorkersResponse,
  observerMiningChartQuery,
  observerMiningQuery,
} from './mining.js';
import {
  coinsResponse,
  conversionConfigResponse,
  conversionConfigUpdateBody,
  convertBody,
  convertResponse,
  paymentConfigResponse,
  paymentConfigUpdateBody,
  poolPayoutsResponse,
} from './money.js';
import { algorithmParams, algorithmStatsResponse, chartQuery, chartResponse, poolStatsResponse } from './pool.js';
import {
  openApiDocument,
  poolFeesResponse,
  poolProfitsResponse,
  profitAlgorithmParams,
  profitChartQuery,
  publicApiPoolResponse,
  publicApiProfitsResponse,
  publicApiUserQuery,
  publicApiUserResponse,
  signatureParams,
  signatureResponse,
  vipApplicationBody,
} from './public.js';
import {
  lifetimeEarningsResponse,
  observerRevenueAlgorithmQuery,
  observerRevenuePayoutsQuery,
  observerRevenueQuery,
  revenueAccountQuery,
  revenueAlgorithmQuery,
  revenueBalanceResponse,
  revenueEarningsResponse,
  revenuePayoutsCsvQuery,
  revenuePayoutsQuery,
  revenuePayoutsResponse,
  revenueStatementQuery,
} from './revenue.js';
import { bannerResponse, healthResponse, siteResponse } from './site.js';
import { stratumResponse } from './stratum.js';

/** Every API path is the spec's path under this prefix. */
export const API_PREFIX = '/v1';

/**
 * A refusal a route is documented to answer (the OpenAPI document lists it, the API docs pages
 * show it): the status, when it happens, and the answer's body.
 */
export interface Refusal {
  status: 400 | 401 | 403 | 404 | 409 | 429;
  when: string;
  example: { error: string; code: string };
}

/**
 * The route table both sides agree on: the server registers handlers against these entries and
 * checks its answers with `response`; the website's client builds its calls from the same entries.
 */
export const routes = {
  health: { method: 'GET', path: '/health', response: healthResponse },
  banner: { method: 'GET', path: '/banner', response: bannerResponse },
  site: { method: 'GET', path: '/site', response: siteResponse },
  poolStats: { method: 'GET', path: '/pool/stats', response: poolStatsResponse },
  poolStratum: { method: 'GET', path: '/pool/stratum', response: stratumResponse },
  poolAlgorithmStats: {
    method: 'GET',
    path: '/pool/stats/:algorithm',
    params: algorithmParams,
    response: algorithmStatsResponse,
  },
  poolStatsChart: {
    method: 'GET',
    path: '/pool/stats/:algorithm/chart',
    params: algorithmParams,
    query: chartQuery,
    response: chartResponse,
  },

  // ── accounts and sessions (spec 7 "Account and session"); bodies are multipart forms (JSON also accepted)
  captchaChallenge: { method: 'GET', path: '/captcha/challenge', response: captchaChallengeResponse },
  userRegister: { method: 'POST', path: '/user/register', body: registerBody, response: resultResponse },
  userLogin: { method: 'POST', path: '/user/login', body: loginBody, response: resultResponse },
  userInfo: { method: 'GET', path: '/user/info', response: userInfoResponse },
  userLogout: { method: 'POST', path: '/user/logout', response: logoutResponse },
  userConfig: { method: 'GET', path: '/user/config', response: userConfigResponse },
  userConfigUpdate: {
    method: 'POST',
    path: '/user/config/update',
    body: userConfigUpdateBody,
    response: resultResponse,
  },
  userAccounts: { method: 'GET', path: '/user/accounts', response: accountListResponse },
  userNewAccount: { method: 'POST', path: '/user/new_account', body: newAccountBody, response: resultResponse },
  userRemoveAccount: {
    method: 'POST',
    path: '/user/remove_account',
    body: removeAccountBody,
    response: resultResponse,
  },
  userKeysRegenerate: {
    method: 'POST',
    path: '/user/keys/regenerate',
    query: accountQuery,
    body: regenerateKeyBody,
    response: regenerateKeyResponse,
  },
  userRedirectConfig: {
    method: 'GET',
    path: '/user/redirect_config',
    query: accountQuery,
    response: redirectConfigResponse,
  },
  userRedirectConfigUpdate: {
    method: 'POST',
    path: '/user/redirect_config/update',
    query: accountQuery,
    body: redirectConfigUpdateBody,
    response: resultResponse,
  },
  passwordReset: { method: 'POST', path: '/password/reset', body: passwordResetBody, response: resultResponse },
  passwordResetSend: {
    method: 'POST',
    path: '/password/reset_send',
    query: passwordResetSendQuery,
    body: passwordResetSendBody,
    response: resultResponse,
  },
  userReferrals: { method: 'GET', path: '/user/referrals', query: accountQuery, response: referralsResponse },
  userCoupon: { method: 'POST', path: '/user/coupon', query: accountQuery, body: couponBody, response: resultResponse },
  userSetReferral: { method: 'GET', path: '/user/set_referral', query: setReferralQuery, response: resultResponse },
  userGenerate2fa: { method: 'GET', path: '/user/config/generate2FA', response: generate2faResponse },
  userEnable2fa: { method: 'POST', path: '/user/config/enable2FA', body: twoFactorBody, response: resultResponse },
  userDisable2fa: { method: 'POST', path: '/user/config/disable2FA', body: twoFactorBody, response: resultResponse },
  /** The QR code (PNG) of the logged-in user's pending 2FA secret; not JSON. */
  twoFactorQr: { method: 'GET', path: '/2fa/:secret', params: twoFactorQrParams },
  userMostUsedAlgo: {
    method: 'GET',
    path: '/user/mostUsedAlgo',
    query: accountQuery,
    response: mostUsedAlgoResponse,
  },

  // ── money (spec 7 "Dashboard" and "Public"; docs/money.md): catalogue, settings, conversion, payouts
  coins: { method: 'GET', path: '/coins', response: coinsResponse },
  poolPayouts: { method: 'GET', path: '/pool/payouts', response: poolPayoutsResponse },
  userConversionConfig: {
    method: 'GET',
    path: '/user/conversion_config',
    query: accountQuery,
    response: conversionConfigResponse,
  },
  userConversionConfigUpdate: {
    method: 'POST',
    path: '/user/conversion_config/update',
    query: accountQuery,
    body: conversionConfigUpdateBody,
    response: resultResponse,
  },
  userPaymentConfig: {
    method: 'GET',
    path: '/user/payment_config',
    query: accountQuery,
    response: paymentConfigResponse,
  },
  userPaymentConfigUpdate: {
    method: 'POST',
    path: '/user/payment_config/update',
    query: accountQuery,
    body: paymentConfigUpdateBody,
    response: resultResponse,
  },
  userConvert: {
    method: 'POST',
    path: '/user/convert',
    query: accountQuery,
    body: convertBody,
    response: convertResponse,
  },

  // ── mining (spec 7 "Dashboard" and "Observer"; docs/dashboard.md "Mining API"). The removals are
  // GETs as the spec lists them (cross-site guarded like a POST); the server accepts POST as well.
  userMining: { method: 'GET', path: '/user/mining', query: miningQuery, response: miningSummaryResponse },
  userMiningChart: { method: 'GET', path: '/user/mining/chart', query: miningChartQuery, response: chartResponse },
  userMiningWorkers: {
    method: 'GET',
    path: '/user/mining/workers',
    query: miningQuery,
    response: miningWorkersResponse,
  },
  userMiningWorkerRemove: {
    method: 'GET',
    path: '/user/mining/workers/remove/:workerId',
    params: miningWorkerParams,
    query: miningQuery,
    response: miningRemoveResponse,
  },
  userMiningWorkersRemoveAll: {
    method: 'GET',
    path: '/user/mining/workers/removeall',
    query: miningQuery,
    response: miningRemoveResponse,
  },
  observerMining: {
    method: 'GET',
    path: '/observer/mining',
    query: observerMiningQuery,
    response: miningSummaryResponse,
  },
  observerMiningChart: {
    method: 'GET',
    path: '/observer/mining/chart',
    query: observerMiningChartQuery,
    response: chartResponse,
  },
  observerMiningWorkers: {
    method: 'GET',
    path: '/observer/mining/workers',
    query: observerMiningQuery,
    response: miningWorkersResponse,
  },

  // ── revenue (spec 7 "Dashboard" and "Observer"; docs/dashboard.md "Revenue API"). The downloads
  // answer files (PDF, CSV), not JSON, so they have no response schema.
  userRevenueBalance: {
    method: 'GET',
    path: '/user/revenue/balance',
    query: revenueAccountQuery,
    response: revenueBalanceResponse,
  },
  userRevenuePayouts: {
    method: 'GET',
    path: '/user/revenue/payouts',
    query: revenuePayoutsQuery,
    response: revenuePayoutsResponse,
  },
  userRevenueEarnings: {
    method: 'GET',
    path: '/user/revenue/earnings',
    query: revenueAlgorithmQuery,
    response: revenueEarningsResponse,
  },
  userRevenueLifetimeEarnings: {
    method: 'GET',
    path: '/user/revenue/lifetimeearnings',
    query: revenueAlgorithmQuery,
    response: lifetimeEarningsResponse,
  },
  userRevenueChart: {
    method: 'GET',
    path: '/user/revenue/chart',
    query: revenueAlgorithmQuery,
    response: chartResponse,
  },
  /** The monthly PDF statement, `earnings_{YYYY-MM}.pdf`. */
  userRevenueEarningsDownload: {
    method: 'GET',
    path: '/user/revenue/earnings/download',
    query: revenueStatementQuery,
  },
  /** Daily earnings as `earnings.csv`. */
  userRevenueEarningsCsv: { method: 'GET', path: '/user/revenue/earnings/csv', query: revenueAlgorithmQuery },
  /** The account's payouts as `payments.csv`. */
  userRevenuePayoutsCsv: { method: 'GET', path: '/user/revenue/payouts/csv', query: revenuePayoutsCsvQuery },
  observerRevenueBalance: {
    method: 'GET',
    path: '/observer/revenue/balance',
    query: observerRevenueQuery,
    response: revenueBalanceResponse,
  },
  observerRevenuePayouts: {
    method: 'GET',
    path: '/observer/revenue/payouts',
    query: observerRevenuePayoutsQuery,
    response: revenuePayoutsResponse,
  },
  observerRevenueEarnings: {
    method: 'GET',
    path: '/observer/revenue/earnings',
    query: observerRevenueAlgorithmQuery,
    response: revenueEarningsResponse,
  },
  observerRevenueLifetimeEarnings: {
    method: 'GET',
    path: '/observer/revenue/lifetimeearnings',
    query: observerRevenueAlgorithmQuery,
    response: lifetimeEarningsResponse,
  },
  observerRevenueChart: {
    method: 'GET',
    path: '/observer/revenue/chart',
    query: observerRevenueAlgorithmQuery,
    response: chartResponse,
  },

  // ── public website and public API (spec 7 "Public"; docs/public-api.md). The /api/* calls are
  // CORS-open and rate-limited per address (and per key for /api/user); they honour no cookies.
  poolProfits: {
    method: 'GET',
    path: '/pool/profits/:algorithm',
    params: profitAlgorithmParams,
    response: poolProfitsResponse,
  },
  poolProfitsChart: {
    method: 'GET',
    path: '/pool/profits/:algorithm/chart',
    params: profitAlgorithmParams,
    query: profitChartQuery,
    response: chartResponse,
  },
  poolFees: { method: 'GET', path: '/pool/fees', response: poolFeesResponse },
  apiPool: { method: 'GET', path: '/api/pool', response: publicApiPoolResponse },
  apiProfits: { method: 'GET', path: '/api/profits', response: publicApiProfitsResponse },
  apiUser: {
    method: 'GET',
    path: '/api/user',
    query: publicApiUserQuery,
    response: publicApiUserResponse,
    // 404, not 401: a 401 tells the website its session ended (spec 8), and this call has no session.
    refusals: [
      {
        status: 400,
        when: 'No apiKey, or one longer than 200 characters.',
        example: { error: 'apiKey is required', code: 'VALIDATION_FAILED' },
      },
      {
        status: 404,
        when: 'No account has this API key (a mistyped key, or one replaced in Settings).',
        example: { error: 'Account not found', code: 'NOT_FOUND' },
      },
      {
        status: 429,
        when: 'More than 30 calls a minute from one address, or 60 a minute with one key; Retry-After says when to call again.',
        example: {
          error: 'Too many requests with this API key. Try again in 42 seconds.',
          code: 'RATE_LIMITED',
        },
      },
    ] satisfies Refusal[],
  },
  signature: {
    method: 'GET',
    path: '/signatures/:signature',
    params: signatureParams,
    response: signatureResponse,
  },
  vipApplication: { method: 'POST', path: '/email/hashrate', body: vipApplicationBody, response: resultResponse },
  /** The OpenAPI 3.1 document of every route of this table. */
  openApi: { method: 'GET', path: '/openapi.json', response: openApiDocument },

  // ── admin (spec 7 "Admin"; docs/admin.md): admins only, 404 for everyone else logged in, 401 for visitors
  adminUsers: { method: 'GET', path: '/admin/users', response: adminUsersResponse },
  adminLogsUser: { method: 'POST', path: '/admin/logs/user', body: adminLogsUserBody, response: adminLogsResponse },
  adminLogsAccount: {
    method: 'POST',
    path: '/admin/logs/account',
    body: adminLogsAccountBody,
    response: adminLogsResponse,
  },
  adminLogin: { method: 'POST', path: '/admin/login', body: adminLoginBody, response: resultResponse },
  adminBalance: { method: 'POST', path: '/admin/balance', body: adminBalanceBody, response: adminBalanceResponse },
} as const;
