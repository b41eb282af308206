import { z } from 'zod';

/**
 * The schema pieces the pool's settings and the chains' coin and wallet settings share
 * (config/settings.ts, chains/<family>/settings.ts).
 */

export function urlWithScheme(schemes: string[], hint: string) {
  return z.string().superRefine((value, ctx) => {
    let scheme: string;
    try {
      scheme = new URL(value).protocol;
    } catch {
      ctx.addIssue({ code: 'custom', message: `not a URL; ${hint}` });
      return;
    }
    if (!schemes.includes(scheme)) ctx.addIssue({ code: 'custom', message: `unsupported scheme '${scheme}'; ${hint}` });
  });
}

export const httpUrl = urlWithScheme(['http:', 'https:'], 'expected an http:// or https:// URL');
export const nodeUrls = (schemes: string[], hint: string) =>
  z.array(urlWithScheme(schemes, hint), { error: 'expected a list of node URLs' }).min(1, 'at least one node URL');
export const pollInterval = z.number().int().min(100).max(60_000).default(1000);
export const ticker = (coin: string) => z.literal(coin, { error: `expected the ticker ${coin}` }).default(coin);

export const walletTicker = z.string().regex(/^[A-Z0-9]{2,10}$/, 'expected an upper-case ticker such as LTC');
/** Coins (decimal) to keep in the wallet; payouts stop with an alert rather than dip below. */
export const minBalance = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'expected a decimal coin amount such as 0.5')
  .default('0');
/**
 * The file holding a pool-signed wallet's private key (hex, one line). The key never sits in the
 * configuration or the environment, where process listings, logs and support dumps reach; start-up
 * refuses a file that other users can read (docs/money.md, "Securing the hot wallets").
 */
export const keyFile = z.string().min(1, 'expected the path of the key file');
export const confirmations = (fallback: number) => z.number().int().min(1).max(100_000).default(fallback);
