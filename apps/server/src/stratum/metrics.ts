import { Counter, Gauge, type Registry } from 'prom-client';

/** What stratum reports for monitoring. */
export interface StratumMetrics {
  sessionOpened(algorithm: string, kind: string): void;
  sessionClosed(algorithm: string, kind: string): void;
  /** outcome: valid, invalid or stale; reason: the reject reason ('' for valid). */
  share(algorithm: string, outcome: string, reason: string): void;
  /** The difficulty a valid share was credited at: its rate over the shares' rate is where vardiff holds. */
  credited(algorithm: string, difficulty: number): void;
  block(algorithm: string, accepted: boolean): void;
  /** A connection refused or closed for abuse (ban, connection limit, malformed input, invalid shares). */
  refused(reason: string): void;
  /** A share journal file could not be written (disk full, I/O error): crash safety is lost meanwhile. */
  journalWriteFailed(file: string): void;
}

export const NO_METRICS: StratumMetrics = {
  sessionOpened() {},
  sessionClosed() {},
  share() {},
  credited() {},
  block() {},
  refused() {},
  journalWriteFailed() {},
};

/** Stratum metrics in a prom-client registry (the one the /metrics endpoint serves). */
export function prometheusStratumMetrics(registry: Registry): StratumMetrics {
  const sessions = new Gauge({
    name: 'lodestone_stratum_sessions',
    help: 'Open stratum sessions by algorithm and port kind.',
    labelNames: ['algorithm', 'kind'] as const,
    registers: [registry],
  });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const shares = counter(
    'lodestone_stratum_shares_total',
    'Shares checked by algorithm, outcome (valid, invalid, stale) and reject reason.',
    ['algorithm', 'outcome', 'reason'],
  );
  const credited = counter(
    'lodestone_stratum_credited_difficulty_total',
    'Difficulty credited to valid shares, by algorithm: over lodestone_stratum_shares_total{outcome="valid"} it is the mean share difficulty vardiff sets; times the algorithm\'s hashes per difficulty, the hashrate.',
    ['algorithm'],
  );
  const blocks = counter(
    'lodestone_stratum_blocks_total',
    'Block candidates submitted to the coin daemon, by algorithm and whether it accepted them.',
    ['algorithm', 'accepted'],
  );
  const refused = counter('lodestone_stratum_refused_total', 'Connections refused or closed for abuse, by reason.', [
    'reason',
  ]);
  const journalErrors = counter(
    'lodestone_share_journal_write_errors_total',
    'Writes to the share journal that failed (disk full, I/O error), by file: alert on any increase.',
    ['file'],
  );
  return {
    journalWriteFailed: (file) => journalErrors.inc({ file }),
    sessionOpened: (algorithm, kind) => sessions.inc({ algorithm, kind }),
    sessionClosed: (algorithm, kind) => sessions.dec({ algorithm, kind }),
    share: (algorithm, outcome, reason) => shares.inc({ algorithm, outcome, reason }),
    credited: (algorithm, difficulty) => credited.inc({ algorithm }, difficulty),
    block: (algorithm, accepted) => blocks.inc({ algorithm, accepted: String(accepted) }),
    refused: (reason) => refused.inc({ reason }),
  };
}
