import { randomBytes } from 'node:crypto';
import { ACCOUNT_MESSAGES, type CaptchaChallengeResponse } from '@lodestone/contract';
import { type Executor, serverSecret, useCaptchaSolution } from '@lodestone/db';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { z } from 'zod';
import { errors } from '../errors.js';

/** A challenge must be solved and used within this time. */
export const CAPTCHA_TTL_MS = 10 * 60_000;

const payloadSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  number: z.number().int().min(0),
  salt: z.string().min(1).max(200),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * The robot check: ALTCHA proof of work, self-hosted. The server hands out challenges signed with
 * its HMAC key (`GET /v1/captcha/challenge`); the browser finds the number whose SHA-256 matches and
 * sends the solved payload as `captchaToken`. A token is accepted only if the signature is ours, the
 * challenge has not expired, and it was never accepted before (used signatures are kept in the
 * database until their expiry, so a replay is refused on every API process).
 */
export class Captcha {
  private constructor(
    private readonly db: Executor,
    private readonly hmacKey: string,
    private readonly maxNumber: number,
    private readonly now: () => Date,
  ) {}

  /** `hmacKey` from configuration, or the pool's generated key from the database. */
  static async create(
    db: Executor,
    options: { hmacKey?: string | undefined; maxNumber: number; now?: () => Date },
  ): Promise<Captcha> {
    const key = options.hmacKey ?? (await serverSecret(db, 'captcha_hmac_key', () => randomBytes(32).toString('hex')));
    return new Captcha(db, key, options.maxNumber, options.now ?? (() => new Date()));
  }

  async challenge(): Promise<CaptchaChallengeResponse> {
    const c = await createChallenge({
      algorithm: 'SHA-256',
      hmacKey: this.hmacKey,
      maxnumber: this.maxNumber,
      expires: new Date(this.now().getTime() + CAPTCHA_TTL_MS),
    });
    return {
      algorithm: c.algorithm,
      challenge: c.challenge,
      maxnumber: c.maxnumber,
      salt: c.salt,
      signature: c.signature,
    };
  }

  /** Accepts a solved token once; otherwise throws 'Please verify you are not a robot.' */
  async verify(token: string | undefined): Promise<void> {
    if (!token || !(await this.accept(token))) throw errors.refused('CAPTCHA_FAILED', ACCOUNT_MESSAGES.robot);
  }

  private async accept(token: string): Promise<boolean> {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    } catch {
      return false;
    }
    const parsed = payloadSchema.safeParse(decoded);
    if (!parsed.success) return false;
    const payload = parsed.data;
    // Every challenge we sign carries its expiry in the salt (covered by the signature).
    const expires = Number(new URLSearchParams(payload.salt.split('?')[1] ?? '').get('expires'));
    const now = this.now().getTime();
    if (!Number.isInteger(expires) || expires * 1000 < now || expires * 1000 > now + CAPTCHA_TTL_MS + 60_000) {
      return false;
    }
    if (!(await verifySolution(payload, this.hmacKey, false))) return false;
    return useCaptchaSolution(this.db, payload.signature, new Date(expires * 1000), new Date(now));
  }
}
