import type { Executor } from '../schema.js';

/** Counts one visit of a referral landing route on the UTC day of `at`. */
export async function countReferralVisit(db: Executor, source: string, at: Date): Promise<void> {
  const day = at.toISOString().slice(0, 10);
  await db
    .insertInto('referral_visits')
    .values({ source, day, visits: 1 })
    .onConflict((oc) =>
      oc.columns(['source', 'day']).doUpdateSet((eb) => ({ visits: eb('referral_visits.visits', '+', 1) })),
    )
    .execute();
}
