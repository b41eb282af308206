import {
  type Account,
  type Coupon,
  couponByCodeForUpdate,
  type Executor,
  raiseFeeDiscount,
  redeemCoupon,
} from '@lodestone/db';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';

export const COUPON_MESSAGES = {
  unknown: 'Unknown coupon code',
  notYetValid: 'This coupon is not valid yet',
  expired: 'This coupon has expired',
  usedUp: 'This coupon has been used up',
  alreadyRedeemed: 'This coupon was already redeemed for this account',
} as const;

/**
 * Redeems a coupon for an account inside the caller's transaction (the coupon row must be locked):
 * checks validity and uses, records the redemption, and raises the account's fee discount to the
 * coupon's if that is more (discounts never add up and never go down).
 */
export async function applyCoupon(
  trx: Executor,
  now: Date,
  coupon: Coupon,
  account: Pick<Account, 'id' | 'user_id'>,
): Promise<void> {
  if (coupon.valid_from && now < coupon.valid_from)
    throw errors.refused('COUPON_NOT_YET_VALID', COUPON_MESSAGES.notYetValid);
  if (coupon.valid_until && now >= coupon.valid_until) throw errors.refused('COUPON_EXPIRED', COUPON_MESSAGES.expired);
  if (coupon.max_uses !== null && coupon.uses >= coupon.max_uses) {
    throw errors.refused('COUPON_USED_UP', COUPON_MESSAGES.usedUp);
  }
  if (!(await redeemCoupon(trx, coupon.id, account.id, now))) {
    throw errors.refused('COUPON_ALREADY_REDEEMED', COUPON_MESSAGES.alreadyRedeemed);
  }
  const feeDiscount = await raiseFeeDiscount(trx, account.id, coupon.discount);
  await logEvent(trx, now, {
    userId: account.user_id,
    accountId: account.id,
    name: 'coupon_redeemed',
    value: { code: coupon.code, discount: coupon.discount, fee_discount: feeDiscount },
  });
}

/** POST user/coupon: redeems a code for one of the user's accounts. */
export async function redeemCouponCode(ctx: AccountsContext, account: Account, code: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const coupon = await couponByCodeForUpdate(trx, code);
    if (!coupon) throw errors.refused('UNKNOWN_COUPON', COUPON_MESSAGES.unknown);
    await applyCoupon(trx, ctx.now(), coupon, account);
  });
}
