import { signatureResponse } from '@lodestone/contract';
import { testEngines } from '@lodestone/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { issueSignature, payoutReceiptText, sha256Hex, signDocument } from '../../services/public/signatures.js';

const NOW = new Date('2025-07-01T08:30:00Z');

describe.each(testEngines())('signatures on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, undefined, engine, { now: () => NOW });
  });
  afterEach(() => t.close());

  it('answers the SHA-256 of a text document the pool signed', async () => {
    const receipt = payoutReceiptText({
      poolName: 'Lodestone',
      account: 'miner01',
      coin: 'LTC',
      txid: 'ab'.repeat(32),
      sentAt: new Date('2025-06-10T08:00:01Z'),
      lines: [{ address: 'ltc1qalice1', amount: '0.03' }],
    });
    const signature = await issueSignature(t.database.db, 'payout', receipt, NOW);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    // Signing the same text again gives the same signature and keeps one row.
    expect(await issueSignature(t.database.db, 'payout', receipt, new Date())).toBe(signature);

    for (const asked of [signature, signature.toUpperCase()]) {
      const res = await t.app.inject({ url: `/v1/signatures/${asked}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(signatureResponse.parse(res.json())).toEqual({
        result: sha256Hex(receipt),
        kind: 'payout',
        issued_at: NOW.toISOString(),
      });
    }
    // Anything else in the document gives another hash: the page reports a mismatch.
    expect(sha256Hex(receipt.replace('0.03', '0.30'))).not.toBe(sha256Hex(receipt));
  });

  it('answers the SHA-256 of a rendered document that prints its own signature', async () => {
    const { signature, document } = await signDocument(
      t.database.db,
      'statement',
      'Statement June 2025\nLTC 0.0152\n',
      (sig) => new TextEncoder().encode(`%PDF-fake\nStatement June 2025\nLTC 0.0152\nVerify: /signature/${sig}\n`),
      NOW,
    );
    const res = await t.app.inject({ url: `/v1/signatures/${signature}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ result: sha256Hex(document), kind: 'statement' });
    // A renderer that changes its output for the same text would hand out documents that never verify.
    await expect(
      signDocument(t.database.db, 'statement', 'Statement June 2025\nLTC 0.0152\n', () => new Uint8Array([1, 2, 3])),
    ).rejects.toThrow(/already issued/);
  });

  it('answers 404 for signatures the pool never issued and for anything that is not one', async () => {
    for (const asked of ['0'.repeat(64), 'not-a-signature', 'z'.repeat(64)]) {
      const res = await t.app.inject({ url: `/v1/signatures/${asked}` });
      expect(res.statusCode, asked).toBe(404);
      expect(res.json()).toEqual({ error: 'Unknown signature', code: 'NOT_FOUND' });
    }
  });
});
