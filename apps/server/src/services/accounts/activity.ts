import { type Account, mostActiveAlgorithmSince } from '@lodestone/db';
import { type AlgorithmName, algorithmByKey, DEFAULT_ALGORITHM } from '@lodestone/domain';
import type { AccountsContext } from './context.js';

export const MOST_USED_WINDOW_DAYS = 30;

/** GET user/mostUsedAlgo: the algorithm the account mined most in the last 30 days; SCRYPT if none. */
export async function mostUsedAlgorithm(ctx: AccountsContext, account: Account): Promise<{ algorithm: AlgorithmName }> {
  const since = new Date(ctx.now().getTime() - MOST_USED_WINDOW_DAYS * 24 * 3600_000);
  const key = await mostActiveAlgorithmSince(ctx.db, account.username, since);
  return { algorithm: (key && algorithmByKey(key)?.name) || DEFAULT_ALGORITHM };
}
