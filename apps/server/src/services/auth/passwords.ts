import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane): about 20-40 ms per hash
 * on one core. Parameters live in each PHC string, so raising them later still verifies old hashes.
 */
const OPTIONS = {
  algorithm: 2 as Algorithm, // Argon2id (a const enum in the typings)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * True when `password` matches the PHC string. Without a hash (unknown e-mail, no password login)
 * a dummy hash is verified anyway, so the answer takes as long whether or not the address exists.
 */
export async function verifyPassword(phc: string | null | undefined, password: string): Promise<boolean> {
  if (!phc) {
    dummy ??= hashPassword('a password nobody has, to spend the time of a real check');
    await verify(await dummy, password);
    return false;
  }
  return verify(phc, password);
}
