import { createHash } from 'node:crypto';

/** The checksum recorded for an applied migration: SHA-256 of the file's text, lowercase hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
