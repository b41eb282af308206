import { EvmWallet } from '@lodestone/chain';
import { amountToUnits } from '@lodestone/domain';
import { readKeyFile } from '../../config/keyFile.js';
import { chainModule } from '../chain.js';
import { evmWalletSetting } from './settings.js';

/** Wei per gwei: max_fee_gwei is written in gwei, the chain counts wei. */
const GWEI_DECIMALS = 9;

/**
 * Ethereum and its ERC-20 tokens (USDC; docs/coins/ethereum.md): a chain the pool pays in but does
 * not mine, from a wallet the pool signs for. A token's decimals are the catalogue's (USDC: 6), which
 * the wallet checks against the contract.
 */
export const evm = chainModule({
  name: 'evm',
  algorithms: [],
  wallets: {
    setting: evmWalletSetting,
    wallet(setting, coin) {
      const wallet = new EvmWallet({
        coin: coin.ticker,
        rpcUrl: setting.rpc_url,
        privateKey: readKeyFile(setting.key_file, `wallets: ${coin.ticker}`),
        chainId: setting.chain_id,
        ...(setting.token ? { token: { address: setting.token as `0x${string}`, decimals: coin.decimals } } : {}),
        feeCoin: setting.fee_coin,
        confirmations: setting.confirmations,
        maxFeePerGas: amountToUnits(setting.max_fee_gwei, GWEI_DECIMALS),
      });
      return { wallet, replaceAfterMs: setting.replace_after_minutes * 60_000 };
    },
  },
});
