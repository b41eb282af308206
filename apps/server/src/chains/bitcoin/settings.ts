import { z } from 'zod';
import { minBalance, pollInterval, urlWithScheme, walletTicker } from '../../config/schemaParts.js';

const bitcoinFamily = z.enum(['sha256', 'scrypt', 'x11']);
/** A bitcoin-family coin (SHA256, SCRYPT, X11) mined from its daemons' getblocktemplate. */
export const bitcoinCoinSetting = z
  .object({
    ticker: z.string().regex(/^[A-Z0-9]{2,10}$/, 'expected an upper-case ticker such as LTC'),
    algorithm: bitcoinFamily,
    daemons: z.array(z.string().url()).min(1, 'at least one daemon RPC URL'),
    pool_address: z.string().min(1),
    rules: z.array(z.string()).default(['segwit']),
    poll_interval_ms: pollInterval,
    pool_tag: z.string().max(20).default('/lodestone/'),
  })
  .strict();

/** A bitcoin-family node wallet (sendmany over JSON-RPC); `kind` may be left out. */
export const bitcoinWalletSetting = z
  .object({
    kind: z.literal('bitcoin').default('bitcoin'),
    ticker: walletTicker,
    rpc_url: urlWithScheme(['http:', 'https:'], 'expected http://user:password@host:port/[wallet/NAME]'),
    min_balance: minBalance,
  })
  .strict();
