/**
 * Signature verification (docs/website.md, Signature verification): the pool answers the
 * SHA-256 (hex) of the document it signed; the page hashes the visitor's copy in the browser and
 * compares. The document never leaves the visitor's computer.
 */

export type VerifyState = 'idle' | 'verifying' | 'valid' | 'mismatch' | 'error';

/** The page's three results. */
export const SIGNATURE_MESSAGES = {
  valid: 'The signature is valid',
  mismatch: 'The signature does not match',
  error: 'An error occurred during verification.',
} as const;

/** What the pool issues: 64 hex digits (docs/public-api.md "Signatures"). */
export function isSignatureFormat(signature: string): boolean {
  return /^[0-9a-f]{64}$/i.test(signature.trim());
}

/** SHA-256 of some bytes as lowercase hex, by the browser's WebCrypto. */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The texts a pasted document may stand for. Text documents (payout receipts) end with one line
 * break, which copying and pasting often drops or doubles, and pasting turns CRLF into LF: the
 * content itself must still match to the byte, only the final line breaks are forgiven.
 */
export function pastedVariants(text: string): string[] {
  const lf = text.replace(/\r\n?/g, '\n');
  const body = lf.replace(/\n+$/, '');
  return [...new Set([lf, `${body}\n`, body])];
}

/** The comparison itself: equal hashes (whatever the case of the hex digits) are a valid signature. */
export function compareHashes(expected: string, actual: readonly string[]): 'valid' | 'mismatch' {
  const want = expected.trim().toLowerCase();
  return actual.some((h) => h.trim().toLowerCase() === want) ? 'valid' : 'mismatch';
}

/** Hashes of a pasted text's variants (UTF-8, as the pool hashed it). */
export async function hashPastedText(text: string): Promise<string[]> {
  const encoder = new TextEncoder();
  return Promise.all(pastedVariants(text).map((t) => sha256Hex(encoder.encode(t))));
}

/** "a monthly earnings statement" from the kind the API names. */
export function kindText(kind: string): string {
  switch (kind) {
    case 'statement':
      return 'a monthly earnings statement';
    case 'payout':
      return 'a payout receipt';
    default:
      return `a document (${kind.replace(/_/g, ' ')})`;
  }
}
