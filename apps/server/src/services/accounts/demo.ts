import {
  type DB,
  insertAccount,
  insertUser,
  liveAccountByUsername,
  replaceConversionSettings,
  userByEmail,
} from '@lodestone/db';
import type { Kysely } from 'kysely';
import type { ServiceLog } from '../log.js';
import { newAccountSecrets } from './accountValues.js';

/** The user that owns the demo fleet's accounts. It has no password: nobody logs in as it. */
export const DEMO_USER_EMAIL = 'demo@lodestone.invalid';

/**
 * The second demo account keeps part of its SCRYPT earnings in the merge-mined coins, so the demo
 * shows Dogecoin and Bellscoin credited beside Litecoin (an account that chose nothing is credited
 * all of SCRYPT's value in Litecoin; docs/money.md, "Merged mining").
 */
const DEMO_MERGED_CONVERSION = new Map([
  [
    'scrypt' as const,
    [
      { ticker: 'LTC', proportion: '50' },
      { ticker: 'DOGE', proportion: '30' },
      { ticker: 'BELLS', proportion: '20' },
    ],
  ],
]);

/**
 * Makes sure the demo fleet's accounts (`demo1` … `demoN`) exist, owned by the demo user, so that
 * stratum lets the fleet mine on `npm start`. A name someone registered first stays theirs (logged).
 * The demo user's accounts are public (not anonymous), so the stats pages show the demo miners.
 */
export async function ensureDemoAccounts(
  db: Kysely<DB>,
  count: number,
  log: ServiceLog,
  prefix = 'demo',
): Promise<void> {
  let user = await userByEmail(db, DEMO_USER_EMAIL);
  if (!user) {
    // Another process may have created it meanwhile.
    const inserted = await insertUser(db, { email: DEMO_USER_EMAIL, passwordHash: null, anonymous: false });
    user = inserted.ok ? inserted.row : await userByEmail(db, DEMO_USER_EMAIL);
  }
  if (!user) throw new Error('the demo user could not be created');
  for (let i = 1; i <= count; i++) {
    const username = `${prefix}${i}`;
    const existing = await liveAccountByUsername(db, username);
    if (existing) {
      if (existing.user_id !== user.id) log.warn({ username }, 'a demo account name belongs to a registered user');
      continue;
    }
    const inserted = await insertAccount(db, { userId: user.id, username, ...(await newAccountSecrets(db)) });
    // Another process created it meanwhile, or a removed account keeps the name reserved.
    if (!inserted.ok) log.warn({ username }, 'a demo account name is taken or reserved');
    else if (i === 2) await replaceConversionSettings(db, inserted.row.id, DEMO_MERGED_CONVERSION, false);
  }
}
