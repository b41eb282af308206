import { generateSecret, generateURI, verify } from 'otplib';

/** A new TOTP secret: 20 random bytes in base32 (32 characters), as authenticator apps expect. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URL an authenticator app reads from the QR code. */
export function otpauthUrl(issuer: string, label: string, secret: string): string {
  return generateURI({ issuer, label, secret });
}

/**
 * Checks a 6-digit code against the secret, allowing one 30-second step of clock drift either way.
 * Returns the code's time step, or null when the code is wrong or its step is not after
 * `afterStep` (a code, or an older one, already used: a replay).
 */
export async function checkTotp(
  secret: string,
  code: string,
  afterStep: bigint | null,
  nowMs: number,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: 30,
    ...(afterStep === null ? {} : { afterTimeStep: Number(afterStep) }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
