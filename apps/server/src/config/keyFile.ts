import { readFileSync, statSync } from 'node:fs';

/**
 * The private key of a pool-signed hot wallet, read from its `key_file` at start-up (docs/money.md,
 * "Securing the hot wallets"): one line of hex (an optional 0x), `bytes` long. A file that users
 * other than its owner can read or write is refused, as ssh refuses such a private key: whoever reads
 * it can empty the wallet.
 */
export function readKeyFile(path: string, what: string, bytes = 32): `0x${string}` {
  let mode: number;
  let text: string;
  try {
    mode = statSync(path).mode;
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${what}: key_file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  if ((mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(3, '0');
    throw new Error(
      `${what}: key_file ${path} can be read or written by other users (mode ${octal}); run chmod 600 ${path}`,
    );
  }
  const hex = text.trim().replace(/^0x/i, '');
  if (!new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(hex)) {
    throw new Error(`${what}: key_file ${path} must hold one private key of ${bytes} bytes as ${bytes * 2} hex digits`);
  }
  return `0x${hex.toLowerCase()}`;
}
