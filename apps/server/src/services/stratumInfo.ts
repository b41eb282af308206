import type { StratumListenerInfo } from '@lodestone/contract';
import { POW } from '@lodestone/pow';
import type { Config } from '../config/config.js';
import { demoAlgorithms } from '../network.js';
import { portDifficulty } from '../stratum/difficulty.js';

const LOCAL_HOST = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[?[0-9a-f:]+\]?)$/i;

/** `{algorithm}.stratum.{host}` in production; the host itself when it is a machine name for local use. */
export function publicStratumHost(stratumHost: string, algorithm: string): string {
  return LOCAL_HOST.test(stratumHost) ? stratumHost : `${algorithm}.stratum.${stratumHost}`;
}

/**
 * The stratum ports miners are told about, from the same configuration the stratum role starts
 * from (and, in one process, the ports it actually bound), so the Getting Started page and the
 * running servers never disagree.
 */
export function describeStratum(config: Config, boundPorts?: readonly number[]): StratumListenerInfo[] {
  const demo = new Set(demoAlgorithms(config));
  return config.stratumListeners.map((l, i) => {
    const difficulty = portDifficulty(l.algorithm, l.kind, demo.has(l.algorithm), POW[l.algorithm], {
      min: l.min_difficulty,
      max: l.max_difficulty,
      start: l.start_difficulty,
    });
    const host = l.public_host ?? publicStratumHost(config.stratumHost, l.algorithm);
    const port = l.public_port ?? boundPorts?.[i] ?? l.port;
    return {
      algorithm: l.algorithm,
      host,
      port,
      kind: l.kind,
      tls: l.tls,
      url: `${l.tls ? 'stratum+ssl' : 'stratum+tcp'}://${host}:${port}`,
      start_difficulty: difficulty.start,
      min_difficulty: difficulty.min,
      max_difficulty: difficulty.max,
      demo: demo.has(l.algorithm),
    };
  });
}
