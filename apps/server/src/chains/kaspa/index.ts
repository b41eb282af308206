import {
  type KaspaBlockSubmission,
  type KaspaJob,
  KaspaJobSource,
  KaspaRpc,
  KaspaWallet,
  payToAddressScript,
  type WorkSource,
} from '@lodestone/chain';
import { readKeyFile } from '../../config/keyFile.js';
import { DemoChainSource } from '../../demo/demoChains.js';
import { type StratumWork, stratumWork } from '../../stratum/work.js';
import { chainModule } from '../chain.js';
import { kaspaFoundBlockStatus } from './blockStatus.js';
import { KASPA_DEMO } from './demo.js';
import { KaspaDialect } from './dialect.js';
import { KaspaMiner } from './miner.js';
import { kaspaCoinSetting, kaspaWalletSetting } from './settings.js';

/** A Kaspa source (kaspad's templates, the demo node, a test's fixture) with the Kaspa dialect. */
export function kaspaWork(source: WorkSource<KaspaJob, KaspaBlockSubmission>): StratumWork {
  return stratumWork(source, (jobs) => new KaspaDialect(jobs));
}

/**
 * Kaspa (kHeavyHash; docs/coins/kaspa.md): block templates over kaspad's wRPC JSON, the dialects of
 * its ASIC and GPU miners, blocks mature once merged by a chain block with a mature coinbase, payouts
 * signed by the pool.
 */
export const kaspa = chainModule({
  name: 'kaspa',
  algorithms: ['kheavyhash'],
  coins: {
    setting: kaspaCoinSetting,
    coin: (setting) => ({
      work: (logger) =>
        kaspaWork(
          new KaspaJobSource({
            coin: setting.ticker,
            nodes: setting.nodes,
            payAddress: setting.pay_address,
            extraData: setting.extra_data,
            pollIntervalMs: setting.poll_interval_ms,
            logger,
          }),
        ),
      blockStatus(logger) {
        const rpc = new KaspaRpc(setting.nodes, logger ? { logger } : {});
        const payScript = payToAddressScript(setting.pay_address);
        return { ask: (block) => kaspaFoundBlockStatus(rpc, payScript, block), close: () => rpc.close() };
      },
    }),
  },
  demo: (_algorithm, options) => kaspaWork(new DemoChainSource({ node: KASPA_DEMO, ...options })),
  // A GPU-style miner (legacy job, difficulties as vardiff sets them): the fleet asks d=N for its rate.
  miner: () => new KaspaMiner('goldshell'),
  wallets: {
    setting: kaspaWalletSetting,
    wallet(setting, coin) {
      const wallet = new KaspaWallet({
        coin: 'KAS',
        url: setting.url,
        privateKey: readKeyFile(setting.key_file, `wallets: ${coin.ticker}`).slice(2),
        prefix: setting.network,
        confirmations: setting.confirmations,
      });
      return { wallet };
    },
  },
});
