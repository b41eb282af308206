import { sql } from 'kysely';
import type { Coupon, Executor } from '../schema.js';

export interface NewCoupon {
  code: string;
  /** Fraction of the pool fee waived, a decimal string above 0 and at most 1. */
  discount: string;
  validFrom?: Date | null;
  validUntil?: Date | null;
  maxUses?: number | null;
}

/** Adds a coupon (operators; tests). */
export async function insertCoupon(db: Executor, coupon: NewCoupon): Promise<Coupon> {
  return db
    .insertInto('coupons')
    .values({
      code: coupon.code,
      discount: coupon.discount,
      valid_from: coupon.validFrom ?? null,
      valid_until: coupon.validUntil ?? null,
      max_uses: coupon.maxUses ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A coupon by code, whatever the letter case, locked until the transaction ends. */
export function couponByCodeForUpdate(db: Executor, code: string): Promise<Coupon | undefined> {
  return db
    .selectFrom('coupons')
    .selectAll()
    .where(sql`lower(code)`, '=', code.toLowerCase())
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Records that an account redeemed a coupon and counts the use. False when this account already
 * redeemed it (nothing changes then).
 */
export async function redeemCoupon(db: Executor, couponId: bigint, accountId: bigint, now: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('coupon_redemptions')
    .values({ coupon_id: couponId, account_id: accountId, redeemed_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('coupon_id')
    .executeTakeFirst();
  if (!inserted) return false;
  await db
    .updateTable('coupons')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', couponId)
    .execute();
  return true;
}
