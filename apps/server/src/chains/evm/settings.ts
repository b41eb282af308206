import { z } from 'zod';
import { confirmations, httpUrl, keyFile, minBalance, walletTicker } from '../../config/schemaParts.js';

/** ETH, or an ERC-20 token (USDC) whose gas the same key's ETH pays (docs/coins/ethereum.md). */
export const evmWalletSetting = z
  .object({
    kind: z.literal('evm'),
    ticker: walletTicker,
    rpc_url: httpUrl,
    chain_id: z.number().int().min(1),
    key_file: keyFile,
    /** The token contract, for a token such as USDC; absent for the chain's own coin. */
    token: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'expected the token contract address, 0x and 40 hex digits')
      .optional(),
    /** The ticker of the coin gas is paid in. */
    fee_coin: walletTicker.default('ETH'),
    confirmations: confirmations(12),
    /** The most a payout may pay per gas, in gwei (decimal): a payout waits rather than pay more. */
    max_fee_gwei: z.string().regex(/^\d+(\.\d{1,9})?$/, 'expected gwei as a decimal with at most 9 decimals'),
    /** How long a payout transaction may wait unmined before it is replaced with a 12.5% higher fee. */
    replace_after_minutes: z.number().int().min(1).max(1440).default(30),
    min_balance: minBalance,
  })
  .strict();
