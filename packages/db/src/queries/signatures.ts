import type { Executor } from '../schema.js';

export interface IssuedSignature {
  signature: string;
  kind: string;
  /** SHA-256 (hex) of the signed document. */
  documentSha256: string;
  issuedAt: Date;
}

/**
 * Stores a signature; a signature already stored is kept as it was (signing the same canonical text
 * twice gives the same signature). Returns the stored row either way.
 */
export async function saveSignature(db: Executor, issued: IssuedSignature): Promise<IssuedSignature> {
  await db
    .insertInto('signatures')
    .values({
      signature: issued.signature,
      kind: issued.kind,
      document_sha256: issued.documentSha256,
      issued_at: issued.issuedAt,
    })
    .onConflict((oc) => oc.column('signature').doNothing())
    .execute();
  const stored = await signatureByValue(db, issued.signature);
  if (!stored) throw new Error('signature vanished after it was saved');
  return stored;
}

/** The signature as issued, or undefined when the pool never issued it. */
export async function signatureByValue(db: Executor, signature: string): Promise<IssuedSignature | undefined> {
  const row = await db.selectFrom('signatures').selectAll().where('signature', '=', signature).executeTakeFirst();
  return row
    ? { signature: row.signature, kind: row.kind, documentSha256: row.document_sha256, issuedAt: row.issued_at }
    : undefined;
}
