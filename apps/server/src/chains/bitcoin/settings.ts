import { z } from 'zod';
import { minBalance, pollInterval, urlWithScheme, walletTicker } from '../../config/schemaParts.js';

const bitcoinFamily = z.enum(['sha256', 'scrypt', 'x11']);
const coinTicker = z.string().regex(/^[A-Z0-9]{2,10}$/, 'expected an upper-case ticker such as LTC');
const daemonUrls = z.array(z.string().url()).min(1, 'at least one daemon RPC URL');

/**
 * An aux chain merge-mined with a SCRYPT coin (Dogecoin, Bellscoin: AuxPoW, docs/coins/dogecoin.md):
 * its daemons' createauxblock pays `pool_address`, and `chain_id` is the id its consensus requires
 * in its blocks (Dogecoin: 98), checked against every aux block the daemons give.
 */
export const mergedCoinSetting = z
  .object({
    ticker: coinTicker,
    chain_id: z.number().int().min(1).max(0xffff),
    daemons: daemonUrls,
    pool_address: z.string().min(1),
    poll_interval_ms: pollInterval,
    /**
     * Confirmations before its blocks' rewards can be spent, so before a found block counts as revenue.
     * By chain id unless set: Dogecoin's 240 (98; its regtest's is 60: set it), Bellscoin's 30 (16),
     * Bitcoin's 100 for any other.
     */
    coinbase_maturity: z.number().int().min(1).max(10_000).optional(),
  })
  .strict()
  .transform((aux) => ({
    ...aux,
    coinbase_maturity: aux.coinbase_maturity ?? COINBASE_MATURITY_BY_CHAIN_ID.get(aux.chain_id) ?? 100,
  }));

/**
 * Coinbase maturity of the aux chains the pool knows, by chain id: Dogecoin Core (src/chainparams.cpp,
 * 240 from height 145,000 on mainnet and testnet) and Bells Core (src/consensus/consensus.h,
 * COINBASE_MATURITY = 30); docs/coins/dogecoin.md.
 */
const COINBASE_MATURITY_BY_CHAIN_ID = new Map([
  [98, 240],
  [16, 30],
]);
export type MergedCoinSetting = z.output<typeof mergedCoinSetting>;

/** A bitcoin-family coin (SHA256, SCRYPT, X11) mined from its daemons' getblocktemplate. */
export const bitcoinCoinSetting = z
  .object({
    ticker: coinTicker,
    algorithm: bitcoinFamily,
    daemons: daemonUrls,
    pool_address: z.string().min(1),
    rules: z.array(z.string()).default(['segwit']),
    poll_interval_ms: pollInterval,
    // 20 bytes: the coinbase script's 100 then hold the height, the coinbase flags, the merged-mining
    // commitment (45 bytes) and the extranonce (docs/coins/dogecoin.md).
    pool_tag: z
      .string()
      .refine((tag) => Buffer.byteLength(tag, 'utf8') <= 20, 'at most 20 bytes of UTF-8')
      .default('/lodestone/'),
    merged: z.array(mergedCoinSetting).default([]),
    /**
     * How its shares are valued (docs/money.md, "FPPS"): `pps`, the template's coinbase value, or
     * `fpps`, the subsidy plus the network's average fees per block over the last 24 hours (read with
     * getblockstats; a node without it keeps the coin on PPS, with the reason logged). Its merged
     * coins are valued by PPS either way: createauxblock does not say what fees an aux block holds.
     */
    payout_scheme: z.enum(['pps', 'fpps']).default('pps'),
  })
  .strict()
  .superRefine((coin, ctx) => {
    if (coin.merged.length > 0 && coin.algorithm !== 'scrypt') {
      ctx.addIssue({ code: 'custom', path: ['merged'], message: 'merged mining is for SCRYPT coins (AuxPoW)' });
    }
    const tickers = new Set([coin.ticker]);
    const chainIds = new Map<number, string>();
    coin.merged.forEach((aux, i) => {
      if (tickers.has(aux.ticker)) {
        ctx.addIssue({ code: 'custom', path: ['merged', i, 'ticker'], message: `${aux.ticker} is mined twice` });
      }
      tickers.add(aux.ticker);
      const clash = chainIds.get(aux.chain_id);
      if (clash !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['merged', i, 'chain_id'],
          message: `${aux.ticker} and ${clash} both have chain id ${aux.chain_id}; an aux tree holds one block per chain id`,
        });
      }
      chainIds.set(aux.chain_id, aux.ticker);
    });
  });

/** A bitcoin-family node wallet (sendmany over JSON-RPC); `kind` may be left out. */
export const bitcoinWalletSetting = z
  .object({
    kind: z.literal('bitcoin').default('bitcoin'),
    ticker: walletTicker,
    rpc_url: urlWithScheme(['http:', 'https:'], 'expected http://user:password@host:port/[wallet/NAME]'),
    min_balance: minBalance,
  })
  .strict();
