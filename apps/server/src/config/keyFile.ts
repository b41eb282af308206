import { readFileSync, statSync } from 'node:fs';
import type { WalletSetting } from './settings.js';

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

/**
 * What is wrong with the key files of the pool-signed `wallets` entries, one line each (none: all can
 * be used). The jobs role checks them when it starts, so a key file others can read, or a missing
 * one, stops start-up with the fix named instead of failing every payout and snapshot run.
 */
export function keyFileProblems(wallets: readonly WalletSetting[]): string[] {
  const problems: string[] = [];
  for (const wallet of wallets) {
    if (!('key_file' in wallet)) continue;
    try {
      readKeyFile(wallet.key_file, `wallets: ${wallet.ticker}`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems;
}
