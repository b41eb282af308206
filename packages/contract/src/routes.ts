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
import { bannerResponse, healthResponse, siteResponse } from './site.js';
import { stratumResponse } from './stratum.js';

/** Every API path is the spec's path under this prefix. */
export const API_PREFIX = '/v1';

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
} as const;
