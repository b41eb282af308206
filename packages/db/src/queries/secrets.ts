import type { Executor } from '../schema.js';

/**
 * A secret the server keeps for itself: the stored value, or `generate()` stored now. Every process
 * of the pool gets the same value (the first writer wins).
 */
export async function serverSecret(db: Executor, name: string, generate: () => string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: generate() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

/**
 * Remembers a used captcha solution until its challenge expires. False when it was used before
 * (a replay). Expired entries are forgotten on the way.
 */
export async function useCaptchaSolution(
  db: Executor,
  signature: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await db.deleteFrom('captcha_solutions').where('expires_at', '<', now).execute();
  const row = await db
    .insertInto('captcha_solutions')
    .values({ signature, expires_at: expiresAt })
    .onConflict((oc) => oc.column('signature').doNothing())
    .returning('signature')
    .executeTakeFirst();
  return row !== undefined;
}
