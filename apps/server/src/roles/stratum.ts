import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AlgorithmKey } from '@lodestone/domain';
import { startFleet } from '../demo/fleet.js';
import { loopbackFor } from '../net/dualStack.js';
import { ProxyProtocolPolicy } from '../net/proxyProtocol.js';
import { createStratumWork, demoAlgorithms } from '../network.js';
import { ensureDemoAccounts } from '../services/accounts/demo.js';
import { accountAuthorizer } from '../services/accounts/stratumAuthorizer.js';
import { startStratum } from '../stratum/startStratum.js';
import type { ProcessParts, Running } from './shared.js';

/** The demo fleet's share interval at most, whatever vardiff aims real miners at. */
const DEMO_FLEET_SHARE_SECONDS = 5;

/**
 * The stratum role: a job source per served algorithm (a coin's nodes, or the demo network), the
 * stratum listeners, and the demo fleet where an algorithm runs on the demo network. Returns the
 * ports the listeners bound (port 0 picks one).
 */
export async function startStratumRole(parts: ProcessParts, running: Running[]): Promise<number[]> {
  const { config, database, bus, registry } = parts;
  const log = parts.log.child({ role: 'stratum' });
  const work = createStratumWork(config, log);
  for (const { source } of work) {
    await source.start();
    running.push({ name: `job source ${source.algorithm}`, stop: () => source.stop() });
  }
  const tls =
    config.stratumTlsKeyFile && config.stratumTlsCertFile
      ? { key: readFileSync(config.stratumTlsKeyFile), cert: readFileSync(config.stratumTlsCertFile) }
      : undefined;
  const stratum = await startStratum({
    node: config.nodeName,
    listeners: config.stratumListeners.map((l) => ({
      algorithm: l.algorithm,
      port: l.port,
      host: l.host,
      kind: l.kind,
      minDifficulty: l.min_difficulty,
      maxDifficulty: l.max_difficulty,
      startDifficulty: l.start_difficulty,
      tls: l.tls ? tls : undefined,
      maxConnections: l.max_connections,
    })),
    work,
    bus,
    log,
    vardiff: { targetIntervalMs: config.shareIntervalSeconds * 1000 },
    maxConnections: config.stratumMaxConnections,
    // One journal per stratum node, should several share a DATA_DIR.
    journalDirectory: path.join(config.dataDir, 'share-journal', config.nodeName.replace(/[^A-Za-z0-9._-]/g, '_')),
    registry,
    proxy: new ProxyProtocolPolicy(config.proxyProtocolFrom),
    // Only registered, live accounts may mine (by their exact name).
    authorize: accountAuthorizer(database.db),
  });
  // A rolling restart: the miners are asked to reconnect before the node goes (docs/deployment.md).
  const drain = { ms: config.stratumDrainSeconds * 1000, reconnectHost: config.stratumReconnectHost };
  running.push({ name: 'stratum', stop: () => stratum.stop(drain) });

  const demo = new Set<AlgorithmKey>(demoAlgorithms(config));
  const targets = stratum.listeners
    .filter((l) => demo.has(l.algorithm) && l.kind === 'standard' && !l.tls)
    .filter((l, i, all) => all.findIndex((o) => o.algorithm === l.algorithm) === i)
    .map((l) => ({ algorithm: l.algorithm, host: loopbackFor(l.host), port: l.port }));
  if (config.demoWorkers > 0 && targets.length > 0) {
    // The fleet mines for demo1 … demoN, owned by a demo user that cannot log in.
    await ensureDemoAccounts(database.db, config.demoAccounts, log);
    const fleet = startFleet({
      targets,
      workers: config.demoWorkers,
      accounts: config.demoAccounts,
      // A share every 5 s at most: with the default six workers one mines each algorithm (SCRYPT at
      // 40 H/s), and at one share in 10 s its first share came, now and then, after the minute in
      // which the home page is to show all six algorithms live.
      shareIntervalSeconds: Math.min(config.shareIntervalSeconds, DEMO_FLEET_SHARE_SECONDS),
      log: parts.log.child({ role: 'demo-fleet' }),
    });
    running.push({ name: 'demo fleet', stop: () => fleet.stop() });
    log.info({ workers: config.demoWorkers, algorithms: targets.map((t) => t.algorithm) }, 'demo fleet mining');
  }
  return stratum.listeners.map((l) => l.port);
}
