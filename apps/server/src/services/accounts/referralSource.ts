import { countReferralVisit } from '@lodestone/db';
import type { AccountsContext } from './context.js';

/** Cookie that remembers, until registration, which landing route a visitor came from. */
export const REFERRAL_SOURCE_COOKIE = 'lodestone_ref';
export const REFERRAL_SOURCE_MAX_AGE_S = 30 * 24 * 3600;
export const REFERRAL_SOURCE_PATTERN = /^[a-z0-9_-]{1,32}$/;

/** GET user/set_referral: counts the visit of a landing route (per source and day, nobody identified). */
export async function recordReferralVisit(ctx: AccountsContext, source: string): Promise<void> {
  await countReferralVisit(ctx.db, source, ctx.now());
}
