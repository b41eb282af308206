import { type CkbJsonScript, decodeCkbAddress } from '@lodestone/chain';
import { z } from 'zod';
import {
  confirmations,
  httpUrl,
  keyFile,
  minBalance,
  nodeUrls,
  pollInterval,
  ticker,
} from '../../config/schemaParts.js';

/**
 * A CKB lock script as ckb.toml's [block_assembler] writes it. CKB nodes pay the block reward to
 * their own block assembler's lock, so the pool can only check, at start-up, that each node's
 * template pays this one (CkbJobSourceOptions.payoutLock).
 */
const ckbLock = z
  .object({
    code_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x and 64 hex digits'),
    hash_type: z.enum(['data', 'type', 'data1', 'data2'], { error: 'expected data, type, data1 or data2' }),
    args: z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x and whole bytes of hex'),
  })
  .strict();

/** Nervos CKB (Eaglesong) from CKB nodes' JSON-RPC (docs/coins/ckb.md). */
export const ckbCoinSetting = z
  .object({
    ticker: ticker('CKB'),
    algorithm: z.literal('eaglesong'),
    nodes: nodeUrls(['http:', 'https:'], 'expected the node JSON-RPC URL, http://host:8114'),
    /** The [block_assembler] lock, or the address that stands for it: one of the two. */
    payout_lock: ckbLock.optional(),
    payout_address: z
      .string()
      .superRefine((value, ctx) => {
        try {
          decodeCkbAddress(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: `not a CKB address: ${(error as Error).message}` });
        }
      })
      .optional(),
    poll_interval_ms: pollInterval,
  })
  .strict()
  .superRefine((coin, ctx) => {
    if ((coin.payout_lock === undefined) === (coin.payout_address === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: "expected either payout_lock or payout_address (the node's [block_assembler] lock)",
        path: ['payout_lock'],
      });
    }
  });

/** The lock a CKB coin setting names, by its lock or its address. */
export function ckbPayoutLock(coin: { payout_lock?: CkbJsonScript | undefined; payout_address?: string | undefined }) {
  return coin.payout_lock ?? decodeCkbAddress(coin.payout_address as string).lock;
}

/** Nervos CKB: the key's secp256k1-blake160 cells through the node's indexer (docs/coins/ckb.md). */
export const ckbWalletSetting = z
  .object({
    kind: z.literal('ckb'),
    ticker: ticker('CKB'),
    rpc_url: httpUrl,
    /** ckb (mainnet) or ckt (testnet): the address prefix and the published secp256k1 dep group. */
    network: z.enum(['ckb', 'ckt']).default('ckb'),
    key_file: keyFile,
    confirmations: confirmations(24),
    min_balance: minBalance,
  })
  .strict();
