import {
  AuxChainSource,
  BitcoinRpc,
  BitcoinWallet,
  blockStatus,
  type ChainLogger,
  DaemonJobSource,
  DaemonPool,
  DemoJobSource,
  type JobSource,
  MergedMining,
} from '@lodestone/chain';
import { type StratumWork, stratumWork } from '../../stratum/work.js';
import { chainModule } from '../chain.js';
import { demoMergedMining } from './demoMerged.js';
import { BitcoinDialect } from './dialect.js';
import { BitcoinMiner } from './miner.js';
import { bitcoinCoinSetting, bitcoinWalletSetting, type MergedCoinSetting } from './settings.js';

/** The aux chains of a SCRYPT coin's `merged` setting, each on its own daemons. */
function mergedMining(merged: readonly MergedCoinSetting[], logger: ChainLogger): MergedMining {
  const chains = merged.map(
    (aux) =>
      new AuxChainSource({
        coin: aux.ticker,
        chainId: aux.chain_id,
        daemons: aux.daemons,
        payoutAddress: aux.pool_address,
        pollIntervalMs: aux.poll_interval_ms,
        logger,
      }),
  );
  return new MergedMining(chains, logger);
}

/** A bitcoin-family source (a daemon's templates, the demo chain, a test's fixture) with its dialect. */
export function bitcoinWork(source: JobSource): StratumWork {
  return stratumWork(source, (jobs) => new BitcoinDialect(source.algorithm, jobs, undefined, source));
}

/**
 * The bitcoin family — SHA256, SCRYPT, X11 (Dash's masternode and superblock payees are its template
 * dialect in @lodestone/chain): getblocktemplate and submitblock on the coin's daemons, the stratum
 * v1 dialect with version rolling, blocks matured by confirmations, payouts from the node's wallet.
 */
export const bitcoin = chainModule({
  name: 'bitcoin',
  algorithms: ['sha256', 'scrypt', 'x11'],
  coins: {
    setting: bitcoinCoinSetting,
    coin: (setting) => ({
      work: (logger) =>
        bitcoinWork(
          new DaemonJobSource({
            coin: setting.ticker,
            algorithm: setting.algorithm,
            daemons: setting.daemons,
            poolAddress: setting.pool_address,
            rules: setting.rules,
            pollIntervalMs: setting.poll_interval_ms,
            poolTag: setting.pool_tag,
            ...(setting.merged.length > 0 && { merged: mergedMining(setting.merged, logger) }),
            logger,
          }),
        ),
      // A merged coin's blocks are bitcoin-family blocks on its own daemons.
      blockStatus(logger, ticker = setting.ticker) {
        const daemons =
          ticker === setting.ticker ? setting.daemons : setting.merged.find((m) => m.ticker === ticker)?.daemons;
        if (daemons === undefined) throw new Error(`${ticker} is not mined with ${setting.ticker}`);
        const pool = new DaemonPool(daemons, logger ? { logger } : {});
        return { ask: (block) => blockStatus(pool, block.hash) };
      },
      networkFees(logger) {
        const rpc = new BitcoinRpc(new DaemonPool(setting.daemons, logger ? { logger } : {}));
        return {
          tipHeight: () => rpc.getBlockCount(),
          async block(height) {
            const stats = await rpc.getBlockStats(height);
            return { ...stats, time: new Date(stats.time * 1000), totalFees: stats.totalFee };
          },
        };
      },
    }),
  },
  demo: (algorithm, { expectedHashesPerBlock, valuation, logger }) =>
    bitcoinWork(
      new DemoJobSource({
        algorithm,
        expectedHashesPerBlock,
        valuation,
        // SCRYPT's demo is merge-mined, as every large SCRYPT pool is.
        ...(algorithm === 'scrypt' && { merged: demoMergedMining(expectedHashesPerBlock, valuation, logger) }),
      }),
    ),
  miner: (algorithm) => new BitcoinMiner(algorithm),
  wallets: {
    setting: bitcoinWalletSetting,
    wallet: (setting, coin) => ({
      wallet: new BitcoinWallet({ coin: coin.ticker, decimals: coin.decimals, rpcUrl: setting.rpc_url }),
    }),
  },
});
