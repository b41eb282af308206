import type { StratumListenerInfo } from '@lodestone/contract';
import { ALGORITHMS } from '@lodestone/domain';

/**
 * The FAQ names ports the way Getting Started lists them: from the listeners this server reports
 * (GET /v1/stratum), never from numbers written here — an operator chooses them (STRATUM_LISTENERS).
 */
export type PortKind = StratumListenerInfo['kind'];

/** "SCRYPT 3334, SHA256 3344": the ports of one kind, in the order of algorithms, each port once. */
export function portsOfKind(listeners: readonly StratumListenerInfo[], kind: PortKind): string {
  const parts: string[] = [];
  for (const algorithm of ALGORITHMS) {
    const ports = [
      ...new Set(listeners.filter((l) => l.kind === kind && l.algorithm === algorithm.key).map((l) => l.port)),
    ].sort((a, b) => a - b);
    if (ports.length > 0) parts.push(`${algorithm.name} ${ports.join('/')}`);
  }
  return parts.join(', ');
}
