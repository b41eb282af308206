import {
  type CkbJob,
  CkbJobSource,
  type CkbJsonBlock,
  CkbWallet,
  DaemonPool,
  RpcClient,
  type WorkSource,
} from '@lodestone/chain';
import { readKeyFile } from '../../config/keyFile.js';
import { DemoChainSource } from '../../demo/demoChains.js';
import { type StratumWork, stratumWork } from '../../stratum/work.js';
import { chainModule } from '../chain.js';
import { ckbFoundBlockStatus } from './blockStatus.js';
import { CKB_DEMO } from './demo.js';
import { CkbDialect } from './dialect.js';
import { CkbMiner } from './miner.js';
import { ckbCoinSetting, ckbPayoutLock, ckbWalletSetting } from './settings.js';

/** A CKB source (the nodes' templates, the demo node, a test's fixture) with the CKB dialect. */
export function ckbWork(source: WorkSource<CkbJob, CkbJsonBlock>): StratumWork {
  return stratumWork(source, (jobs) => new CkbDialect(jobs));
}

/**
 * Nervos CKB (Eaglesong; docs/coins/ckb.md): block templates from the nodes' JSON-RPC, the stratum
 * dialect of CKB pools, rewards final eleven blocks later, payouts signed by the pool.
 */
export const ckb = chainModule({
  name: 'ckb',
  algorithms: ['eaglesong'],
  coins: {
    setting: ckbCoinSetting,
    coin: (setting) => ({
      work: (logger) =>
        ckbWork(
          new CkbJobSource({
            coin: setting.ticker,
            nodes: setting.nodes,
            payoutLock: ckbPayoutLock(setting),
            pollIntervalMs: setting.poll_interval_ms,
            logger,
          }),
        ),
      blockStatus(logger) {
        const clients = setting.nodes.map((url) => new RpcClient({ url, jsonrpc: '2.0' }));
        const pool = new DaemonPool(clients, logger ? { logger } : {});
        return { ask: (block) => ckbFoundBlockStatus(pool, block) };
      },
    }),
  },
  demo: (_algorithm, options) => ckbWork(new DemoChainSource({ node: CKB_DEMO, ...options })),
  miner: () => new CkbMiner(),
  wallets: {
    setting: ckbWalletSetting,
    wallet(setting, coin) {
      const wallet = new CkbWallet({
        coin: 'CKB',
        rpcUrl: setting.rpc_url,
        privateKey: readKeyFile(setting.key_file, `wallets: ${coin.ticker}`),
        network: setting.network,
        confirmations: setting.confirmations,
      });
      return { wallet };
    },
  },
});
