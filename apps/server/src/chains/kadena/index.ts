import {
  ChainwebClient,
  type ChainwebVersionName,
  JobSourceConfigError,
  type KadenaJob,
  KadenaJobSource,
  KadenaWallet,
  type WorkSource,
} from '@lodestone/chain';
import { readKeyFile } from '../../config/keyFile.js';
import { DemoChainSource } from '../../demo/demoChains.js';
import { type StratumWork, stratumWork } from '../../stratum/work.js';
import { chainModule } from '../chain.js';
import { kadenaFoundBlockStatus } from './blockStatus.js';
import { KADENA_DEMO } from './demo.js';
import { KadenaDialect } from './dialect.js';
import { KadenaMiner } from './miner.js';
import { kadenaCoinSetting, kadenaWalletSetting } from './settings.js';

/** A Kadena source (chainweb's mining API, the demo node, a replay) with the Kadena dialect. */
export function kadenaWork(source: WorkSource<KadenaJob, Uint8Array>): StratumWork {
  return stratumWork(source, (jobs) => new KadenaDialect(jobs));
}

/**
 * The Kadena source refuses to start when its node runs another chainweb version than configured: work
 * of testnet04 mined for a mainnet01 pool would be worthless, and the miner reward table differs.
 */
function checkedChainwebVersion(source: KadenaJobSource, version: string): KadenaJobSource {
  const start = source.start.bind(source);
  source.start = async () => {
    await start();
    const running = source.clients.map((c) => c.knownVersion).find((v) => v !== undefined);
    if (running !== version) {
      await source.stop();
      throw new JobSourceConfigError(
        `chainweb node ${source.clients[0]?.name ?? ''} runs ${running ?? 'an unknown version'}, not the configured chainweb_version ${version}`,
      );
    }
  };
  return source;
}

/**
 * Kadena (Blake2s; docs/coins/kadena.md): work from chainweb nodes' mining API across the braid's
 * chains, the dialect of Kadena's ASIC pools, blocks mature by depth on their own chain, payouts as
 * Pact transfers signed by the pool.
 */
export const kadena = chainModule({
  name: 'kadena',
  algorithms: ['blake2s'],
  coins: {
    setting: kadenaCoinSetting,
    coin: (setting) => ({
      work: (logger) =>
        kadenaWork(
          checkedChainwebVersion(
            new KadenaJobSource({
              coin: setting.ticker,
              nodes: setting.nodes,
              miner: {
                account: setting.miner.account,
                publicKeys: setting.miner.public_keys,
                predicate: setting.miner.predicate,
              },
              logger,
            }),
            setting.chainweb_version,
          ),
        ),
      // Every configured node follows the same chains; the first one answers for them.
      blockStatus: () => ({
        ask: kadenaFoundBlockStatus(
          new ChainwebClient({
            url: setting.nodes[0] as string,
            version: setting.chainweb_version as ChainwebVersionName,
          }),
        ),
      }),
    }),
  },
  demo: (_algorithm, options) => kadenaWork(new DemoChainSource({ node: KADENA_DEMO, ...options })),
  miner: () => new KadenaMiner(),
  wallets: {
    setting: kadenaWalletSetting,
    wallet(setting, coin) {
      const wallet = new KadenaWallet({
        coin: 'KDA',
        baseUrl: setting.url,
        ...(setting.p2p_url ? { p2pUrl: setting.p2p_url } : {}),
        networkId: setting.network_id,
        chainId: setting.chain_id,
        privateKey: readKeyFile(setting.key_file, `wallets: ${coin.ticker}`).slice(2),
        confirmations: setting.confirmations,
      });
      return { wallet };
    },
  },
});
