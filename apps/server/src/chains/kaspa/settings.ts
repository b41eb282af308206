import { decodeKaspaAddress } from '@lodestone/chain';
import { z } from 'zod';
import {
  confirmations,
  keyFile,
  minBalance,
  nodeUrls,
  pollInterval,
  ticker,
  urlWithScheme,
} from '../../config/schemaParts.js';

/** Kaspa (kHeavyHash) from kaspad's wRPC JSON over WebSocket (docs/coins/kaspa.md). */
export const kaspaCoinSetting = z
  .object({
    ticker: ticker('KAS'),
    algorithm: z.literal('kheavyhash'),
    nodes: nodeUrls(['ws:', 'wss:'], 'expected a kaspad wRPC JSON URL, ws://host:18110'),
    pay_address: z.string().superRefine((value, ctx) => {
      try {
        decodeKaspaAddress(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `not a Kaspa address: ${(error as Error).message}` });
      }
    }),
    /** Appended by kaspad to the coinbase payload. */
    extra_data: z.string().max(64).default('/lodestone/'),
    poll_interval_ms: pollInterval,
  })
  .strict();

/** Kaspa: the key's Schnorr P2PK outputs through a kaspad with --utxoindex (docs/coins/kaspa.md). */
export const kaspaWalletSetting = z
  .object({
    kind: z.literal('kaspa'),
    ticker: ticker('KAS'),
    url: urlWithScheme(['ws:', 'wss:'], 'expected a kaspad wRPC JSON URL, ws://host:18110'),
    /** The network's address prefix: kaspa (mainnet), kaspatest, kaspasim or kaspadev. */
    network: z.enum(['kaspa', 'kaspatest', 'kaspasim', 'kaspadev']).default('kaspa'),
    key_file: keyFile,
    /** DAA score depth (about 10 a second on mainnet). */
    confirmations: confirmations(100),
    min_balance: minBalance,
  })
  .strict();
