/**
 * The referral landing routes (docs/decisions.md, Accounts and sessions, Landing routes): each registers its name as
 * the visitor's referral source (GET /v1/user/set_referral?code=…) and then shows home.
 */
export const REFERRAL_SOURCES = ['reddit', 'twitter', 'facebook', 'tiktok', 'instagram', 'musk_miners'] as const;

export type ReferralSource = (typeof REFERRAL_SOURCES)[number];
