import { createHash, createHmac, randomBytes } from 'node:crypto';
import { SIGNATURE_PATTERN, type SignatureResponse } from '@lodestone/contract';
import { type Executor, saveSignature, serverSecret, signatureByValue } from '@lodestone/db';
import { errors } from '../errors.js';

/**
 * Signatures on documents the pool hands out (docs/public-api.md, "Signatures"). A document the pool
 * signs — a monthly earnings statement, a payout receipt — carries a signature and the link
 * `{PUBLIC_URL}/signature/{signature}`. That page asks `GET /v1/signatures/{signature}` for the
 * SHA-256 of the document as the pool issued it and compares it with the SHA-256 of the visitor's copy:
 * equal means the copy is exactly what the pool issued.
 *
 * - signature = HMAC-SHA256(pool key, "lodestone-signature-v1\n{kind}\n{canonical text}") in lowercase
 *   hex: nobody without the key can make one, and it cannot be guessed or enumerated;
 * - the pool key is generated once and kept in `server_secrets` (`signature_hmac_key`), shared by every
 *   process; verification never needs it (it is a lookup), so replacing the key only changes future
 *   signatures;
 * - the table stores the signature, its kind, the SHA-256 of the document and when it was issued; the
 *   document itself is not kept.
 */

export const SIGNATURE_KEY_NAME = 'signature_hmac_key';
const DOMAIN = 'lodestone-signature-v1';
/** What may be signed: lowercase names such as `statement` and `payout`. */
export const SIGNATURE_KIND = /^[a-z][a-z_]{0,31}$/;
export const UNKNOWN_SIGNATURE = 'Unknown signature';

export function sha256Hex(document: string | Uint8Array): string {
  return createHash('sha256').update(document).digest('hex');
}

/** The signature of a canonical text under `key` (pure). */
export function signatureOf(key: string, kind: string, canonicalText: string): string {
  if (!SIGNATURE_KIND.test(kind)) throw new RangeError(`not a signature kind: ${kind}`);
  return createHmac('sha256', key).update(`${DOMAIN}\n${kind}\n${canonicalText}`).digest('hex');
}

/** The pool's signing key (generated and stored on first use). */
export function signatureKey(db: Executor): Promise<string> {
  return serverSecret(db, SIGNATURE_KEY_NAME, () => randomBytes(32).toString('hex'));
}

/** The verification page of a signature, the link a signed document prints. */
export function verificationUrl(publicUrl: string, signature: string): string {
  return `${publicUrl}/signature/${signature}`;
}

async function record(db: Executor, kind: string, signature: string, document: string | Uint8Array, now: Date) {
  const documentSha256 = sha256Hex(document);
  const stored = await saveSignature(db, { signature, kind, documentSha256, issuedAt: now });
  if (stored.documentSha256 !== documentSha256) {
    // The same canonical text was signed before for another document: the new one would never verify.
    throw new Error(`signature ${signature} was already issued for another ${kind} document`);
  }
  return signature;
}

/**
 * The hook for text documents: signs `canonicalText`, which is itself the document handed out (its
 * UTF-8 bytes are what the visitor hashes), records it and returns the signature. Signing the same
 * text again returns the same signature. Call it in the transaction that makes the document, or
 * after; it only inserts one row.
 */
export async function issueSignature(
  db: Executor,
  kind: string,
  canonicalText: string,
  now = new Date(),
): Promise<string> {
  const signature = signatureOf(await signatureKey(db), kind, canonicalText);
  return record(db, kind, signature, canonicalText, now);
}

/**
 * The hook for rendered documents (a PDF) that print their own signature: signs `canonicalText` (what
 * the document says, without the signature), lets `render` lay the document out with the signature
 * and its link, and records the SHA-256 of the rendered bytes. `render` must be deterministic for
 * the same text (or the text must hold something unique, such as when it was made).
 */
export async function signDocument(
  db: Executor,
  kind: string,
  canonicalText: string,
  render: (signature: string) => Promise<Uint8Array> | Uint8Array,
  now = new Date(),
): Promise<{ signature: string; document: Uint8Array }> {
  const signature = signatureOf(await signatureKey(db), kind, canonicalText);
  const document = await render(signature);
  await record(db, kind, signature, document, now);
  return { signature, document };
}

/** GET /signatures/{signature}: the document's SHA-256, or NOT_FOUND for anything the pool did not issue. */
export async function readSignature(db: Executor, signature: string): Promise<SignatureResponse> {
  const text = signature.trim().toLowerCase();
  const found = SIGNATURE_PATTERN.test(text) ? await signatureByValue(db, text) : undefined;
  if (!found) throw errors.notFound(UNKNOWN_SIGNATURE);
  return { result: found.documentSha256, kind: found.kind, issued_at: found.issuedAt.toISOString() };
}

export interface PayoutReceipt {
  poolName: string;
  account: string;
  /** Ticker. */
  coin: string;
  txid: string;
  sentAt: Date;
  /** The account's outputs in the transaction: address and coin amount (decimal text). */
  lines: readonly { address: string; amount: string }[];
}

/**
 * The canonical text of a payout receipt (kind `payout`): one account's part of one sent payout, a
 * plain-text document (UTF-8, `\n` line ends) that is signed as it is with issueSignature.
 */
export function payoutReceiptText(r: PayoutReceipt): string {
  return [
    `${r.poolName} payout receipt`,
    `account: ${r.account}`,
    `coin: ${r.coin}`,
    `txid: ${r.txid}`,
    `sent: ${r.sentAt.toISOString()}`,
    ...r.lines.map((l) => `pay: ${l.address} ${l.amount} ${r.coin}`),
    '',
  ].join('\n');
}
