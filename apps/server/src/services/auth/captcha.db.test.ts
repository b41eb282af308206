import type { Database } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
import { solveChallenge } from 'altcha-lib/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTCHA_TTL_MS, Captcha } from './captcha.js';

describe.each(testEngines())('robot check (%s)', (engine) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function solved(captcha: Captcha): Promise<string> {
    const c = await captcha.challenge();
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    const payload = { ...c, number: solution?.number };
    return Buffer.from(JSON.stringify(payload)).toString('base64');
  }

  it('refuses a token whose challenge expired, even if never used', async () => {
    database = await createTestDatabase({ engine });
    let now = Date.now();
    const captcha = await Captcha.create(database.db, { maxNumber: 1000, now: () => new Date(now) });
    const token = await solved(captcha);
    now += CAPTCHA_TTL_MS + 1000;
    await expect(captcha.verify(token)).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' });
  });

  it('accepts a fresh token once and remembers it across instances sharing the database', async () => {
    database = await createTestDatabase({ engine });
    const first = await Captcha.create(database.db, { maxNumber: 1000 });
    const second = await Captcha.create(database.db, { maxNumber: 1000 });
    const token = await solved(first);
    await expect(second.verify(token)).resolves.toBeUndefined();
    await expect(first.verify(token)).rejects.toMatchObject({ message: 'Please verify you are not a robot.' });
  });

  it('refuses tokens signed with another key', async () => {
    database = await createTestDatabase({ engine });
    const ours = await Captcha.create(database.db, { maxNumber: 1000 });
    const theirs = await Captcha.create(database.db, { maxNumber: 1000, hmacKey: 'x'.repeat(40) });
    await expect(ours.verify(await solved(theirs))).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' });
  });
});
