import { CkbWallet, EvmWallet, KadenaWallet, KaspaWallet, type SigningWallet } from '@lodestone/chain';
import type { Coin } from '@lodestone/db';
import { amountToUnits } from '@lodestone/domain';
import { readKeyFile } from '../../config/keyFile.js';
import type { WalletSetting } from '../../config/settings.js';

type SigningSetting = Exclude<WalletSetting, { kind: 'bitcoin' }>;

/** Wei per gwei: max_fee_gwei is written in gwei, the chain counts wei. */
const GWEI_DECIMALS = 9;

/**
 * The wallet a pool-signed `wallets` entry describes (docs/money.md, "Payouts from pool-signed
 * wallets"), its key read from its key file. Amounts are in the catalogue coin's units; a token's
 * decimals are the catalogue's (USDC: 6), which the EVM wallet checks against the contract.
 */
export function createSigningWallet(setting: SigningSetting, coin: Coin): SigningWallet {
  const privateKey = readKeyFile(setting.key_file, `wallets: ${coin.ticker}`);
  switch (setting.kind) {
    case 'evm':
      return new EvmWallet({
        coin: coin.ticker,
        rpcUrl: setting.rpc_url,
        privateKey,
        chainId: setting.chain_id,
        ...(setting.token ? { token: { address: setting.token as `0x${string}`, decimals: coin.decimals } } : {}),
        feeCoin: setting.fee_coin,
        confirmations: setting.confirmations,
        maxFeePerGas: amountToUnits(setting.max_fee_gwei, GWEI_DECIMALS),
      });
    case 'ckb':
      return new CkbWallet({
        coin: 'CKB',
        rpcUrl: setting.rpc_url,
        privateKey,
        network: setting.network,
        confirmations: setting.confirmations,
      });
    case 'kaspa':
      return new KaspaWallet({
        coin: 'KAS',
        url: setting.url,
        privateKey: privateKey.slice(2),
        prefix: setting.network,
        confirmations: setting.confirmations,
      });
    case 'kadena':
      return new KadenaWallet({
        coin: 'KDA',
        baseUrl: setting.url,
        ...(setting.p2p_url ? { p2pUrl: setting.p2p_url } : {}),
        networkId: setting.network_id,
        chainId: setting.chain_id,
        privateKey: privateKey.slice(2),
        confirmations: setting.confirmations,
      });
  }
}
