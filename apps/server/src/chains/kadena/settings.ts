import { isChainwebVersionName } from '@lodestone/chain';
import { z } from 'zod';
import { confirmations, httpUrl, keyFile, minBalance, nodeUrls, ticker } from '../../config/schemaParts.js';

/** Kadena (Blake2s) from chainweb nodes' mining API (docs/coins/kadena.md). */
export const kadenaCoinSetting = z
  .object({
    ticker: ticker('KDA'),
    algorithm: z.literal('blake2s'),
    nodes: nodeUrls(['http:', 'https:'], 'expected a chainweb node service URL, http://host:1848'),
    chainweb_version: z.string().refine(isChainwebVersionName, 'expected mainnet01, testnet04 or development'),
    /** The pool's miner, as listed in each node's mining coordination config. */
    miner: z
      .object({
        account: z.string().min(3, 'expected the miner account, e.g. k:<public key>'),
        public_keys: z
          .array(z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lower-case hex digits'))
          .min(1, 'at least one public key'),
        /** A Pact keyset predicate: keys-all, keys-any, keys-2 or a module's function. */
        predicate: z
          .string()
          .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, 'expected a keyset predicate such as keys-all')
          .default('keys-all'),
      })
      .strict(),
  })
  .strict();

/** Kadena: `k:` account of the key on one chain, through a chainweb node's Pact API (docs/coins/kadena.md). */
export const kadenaWalletSetting = z
  .object({
    kind: z.literal('kadena'),
    ticker: ticker('KDA'),
    url: httpUrl,
    /** The node's P2P API (port 1789), which alone answers mempool lookups: a sent payout shows as pending. */
    p2p_url: httpUrl.optional(),
    network_id: z.string().refine(isChainwebVersionName, 'expected mainnet01, testnet04 or development'),
    /** The chain the pool pays from (its funds are per chain). */
    chain_id: z.number().int().min(0).max(19),
    key_file: keyFile,
    confirmations: confirmations(10),
    min_balance: minBalance,
  })
  .strict();
