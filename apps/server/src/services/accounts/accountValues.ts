import { type Executor, referralCodeTaken } from '@lodestone/db';
import { newReferralCode, randomToken } from '../auth/tokens.js';

/** Keys and a referral code for a new account; the code is checked to be free. */
export async function newAccountSecrets(
  db: Executor,
): Promise<{ apiKey: string; observerKey: string; referralCode: string }> {
  let referralCode = newReferralCode();
  // 32^8 codes: a collision is rare, but a taken code must never be handed out twice.
  for (let i = 0; i < 10 && (await referralCodeTaken(db, referralCode)); i++) referralCode = newReferralCode();
  return { apiKey: randomToken(32), observerKey: randomToken(32), referralCode };
}
