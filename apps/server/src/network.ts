import {
  type ChainLogger,
  CkbJobSource,
  DaemonJobSource,
  DEFAULT_DEMO_HASHES_PER_BLOCK,
  DEMO_BLOCK_SECONDS,
  DemoJobSource,
  JobSourceConfigError,
  KadenaJobSource,
  KaspaJobSource,
} from '@lodestone/chain';
import type { AlgorithmKey } from '@lodestone/domain';
import type { Config } from './config/config.js';
import { type CoinSetting, ckbPayoutLock } from './config/settings.js';
import { DemoChainSource, isDemoChainAlgorithm } from './demo/demoChains.js';
import { DEFAULT_FLEET_HASHRATE, fleetAssignments } from './demo/fleet.js';
import { minerDialectFor } from './stratum/client/minerDialects.js';
import type { AnyWorkSource } from './stratum/startStratum.js';

/** Algorithms that have stratum ports, in listener order, without duplicates. */
export function servedAlgorithms(config: Config): AlgorithmKey[] {
  return [...new Set(config.stratumListeners.map((l) => l.algorithm))];
}

/** Algorithms with ports but no configured coin: their work comes from the demo network. */
export function demoAlgorithms(config: Config): AlgorithmKey[] {
  const mined = new Set(config.coins.map((c) => c.algorithm));
  return servedAlgorithms(config).filter((a) => !mined.has(a));
}

/** Whether the demo fleet mines an algorithm (its miner side of the dialect exists). */
export function fleetMines(algorithm: AlgorithmKey): boolean {
  return minerDialectFor(algorithm) !== undefined;
}

/**
 * Sizes the demo chain's start target to the demo fleet's own hashrate, so that a newcomer running
 * `npm start` sees a block found now and then (about every ten minutes per algorithm). From there the
 * chain retargets to whatever mines it (DEMO_BLOCK_SECONDS), and never gets easier than this start.
 */
function demoHashesPerBlock(config: Config, algorithm: AlgorithmKey, demo: AlgorithmKey[]): bigint {
  const targets = demo.filter(fleetMines).map((a) => ({ algorithm: a, host: '', port: 0 }));
  const workers = fleetAssignments(config.demoWorkers, config.demoAccounts, targets).filter(
    (w) => w.target.algorithm === algorithm,
  ).length;
  const hashrate = DEFAULT_FLEET_HASHRATE[algorithm];
  if (workers === 0) return DEFAULT_DEMO_HASHES_PER_BLOCK;
  return BigInt(Math.max(1, Math.round(workers * hashrate * DEMO_BLOCK_SECONDS)));
}

/**
 * One job source per served algorithm: its configured coin's nodes, or the demo network — the demo
 * job source of the bitcoin family, and for CKB, Kaspa and Kadena their real job sources against
 * in-process demo nodes (demo/demoChains.ts).
 */
export function createJobSources(config: Config, logger: ChainLogger): AnyWorkSource[] {
  const demo = demoAlgorithms(config);
  return servedAlgorithms(config).map((algorithm): AnyWorkSource => {
    const coin = config.coins.find((c) => c.algorithm === algorithm);
    if (coin) return coinSource(coin, logger);
    const expectedHashesPerBlock = demoHashesPerBlock(config, algorithm, demo);
    if (isDemoChainAlgorithm(algorithm)) {
      return new DemoChainSource({ algorithm, expectedHashesPerBlock, valuation: config.demoValuation, logger });
    }
    return new DemoJobSource({ algorithm, expectedHashesPerBlock, valuation: config.demoValuation });
  });
}

/** The job source of a configured coin, on its own nodes. */
export function coinSource(coin: CoinSetting, logger: ChainLogger): AnyWorkSource {
  switch (coin.algorithm) {
    case 'eaglesong':
      return new CkbJobSource({
        coin: coin.ticker,
        nodes: coin.nodes,
        payoutLock: ckbPayoutLock(coin),
        pollIntervalMs: coin.poll_interval_ms,
        logger,
      }) as unknown as AnyWorkSource;
    case 'kheavyhash':
      return new KaspaJobSource({
        coin: coin.ticker,
        nodes: coin.nodes,
        payAddress: coin.pay_address,
        extraData: coin.extra_data,
        pollIntervalMs: coin.poll_interval_ms,
        logger,
      }) as unknown as AnyWorkSource;
    case 'blake2s':
      return checkedChainwebVersion(
        new KadenaJobSource({
          coin: coin.ticker,
          nodes: coin.nodes,
          miner: {
            account: coin.miner.account,
            publicKeys: coin.miner.public_keys,
            predicate: coin.miner.predicate,
          },
          logger,
        }),
        coin.chainweb_version,
      );
    default:
      return new DaemonJobSource({
        coin: coin.ticker,
        algorithm: coin.algorithm,
        daemons: coin.daemons,
        poolAddress: coin.pool_address,
        rules: coin.rules,
        pollIntervalMs: coin.poll_interval_ms,
        poolTag: coin.pool_tag,
        logger,
      }) as unknown as AnyWorkSource;
  }
}

/**
 * The Kadena source refuses to start when its node runs another chainweb version than configured: work
 * of testnet04 mined for a mainnet01 pool would be worthless, and the miner reward table differs.
 */
function checkedChainwebVersion(source: KadenaJobSource, version: string): AnyWorkSource {
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
  return source as unknown as AnyWorkSource;
}
