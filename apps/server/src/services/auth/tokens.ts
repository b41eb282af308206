import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A bearer secret: `bytes` random bytes as base64url (32 bytes → 43 characters, 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 of a token as 64 hex digits: what the database keeps instead of the token. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Upper-case letters and digits without the look-alikes 0/O and 1/I. */
const REFERRAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A referral code people can read out and type: 8 characters, 40 bits. */
export function newReferralCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i++) code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  return code;
}
