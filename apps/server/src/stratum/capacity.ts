import { readFileSync } from 'node:fs';

/**
 * How many stratum connections this process takes. Every socket is a file descriptor, and so is every
 * HTTP request, database connection and file the pool writes; when stratum takes them all, the
 * website and API stop answering (issue 15: 20,000 idle sockets from 200 addresses, `/v1/health`
 * down for 15 s). So stratum gets the descriptor limit less a reserve, shared by all its listeners,
 * and each listener may be capped lower. Near the cap, connections that have not authorized a worker
 * are closed sooner, since an honest miner authorizes within a second of connecting.
 */

/** The soft limit on open files ("Max open files" in /proc/self/limits), or undefined where unknown. */
export function openFileLimit(
  read: () => string = () => readFileSync('/proc/self/limits', 'utf8'),
): number | undefined {
  try {
    const line = read()
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (soft === undefined) return undefined;
    if (soft === 'unlimited') return Number.POSITIVE_INFINITY;
    const value = Number(soft);
    return Number.isInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface StratumCapacity {
  /** The process's descriptor limit, when known. */
  fileLimit: number | undefined;
  /** Descriptors kept for HTTP, the database and files. */
  reserve: number;
  /** Stratum connections this process accepts, all listeners together. */
  maxConnections: number;
  /** Why the configured cap was lowered, when it was. */
  lowered?: string;
}

/** Without a known limit (not Linux): a cap that a single process serves comfortably. */
const UNKNOWN_LIMIT_CAP = 50_000;

/**
 * The reserve is a tenth of the limit, at least 512 (HTTP keep-alive connections, the database pool,
 * log and outbox files); what is left is stratum's. A configured cap above that is lowered to it.
 */
export function stratumCapacity(fileLimit: number | undefined, configured: number | undefined): StratumCapacity {
  if (fileLimit === undefined || !Number.isFinite(fileLimit)) {
    return { fileLimit, reserve: 0, maxConnections: configured ?? UNKNOWN_LIMIT_CAP };
  }
  const reserve = Math.max(512, Math.ceil(fileLimit / 10));
  const available = Math.max(16, fileLimit - reserve);
  if (configured === undefined) return { fileLimit, reserve, maxConnections: available };
  if (configured <= available) return { fileLimit, reserve, maxConnections: configured };
  return {
    fileLimit,
    reserve,
    maxConnections: available,
    lowered: `STRATUM_MAX_CONNECTIONS ${configured} is above the open-file limit ${fileLimit} less a reserve of ${reserve}`,
  };
}

export type CapRefusal = 'process-connection-cap' | 'listener-connection-cap';

/**
 * The process-wide count of stratum connections (sockets admitted, TLS handshakes included). Each
 * listener keeps its own count and asks `admit` with it; `shed` asks every listener to close its
 * connections that have not authorized a worker within the short pressure timeout.
 */
export class ConnectionBudget {
  private open = 0;
  private readonly shedders = new Set<() => void>();

  constructor(
    readonly maxConnections: number,
    /** Above this share of the cap the process is "under pressure". */
    private readonly pressureRatio = 0.8,
  ) {}

  get count(): number {
    return this.open;
  }

  get underPressure(): boolean {
    return this.open >= this.maxConnections * this.pressureRatio;
  }

  /** A refusal reason, or undefined when one more connection may open (then call `opened`). */
  admit(listenerCount: number, listenerMax: number): CapRefusal | undefined {
    if (this.open >= this.maxConnections) return 'process-connection-cap';
    if (listenerCount >= listenerMax) return 'listener-connection-cap';
    return undefined;
  }

  opened(): void {
    this.open++;
  }

  closed(): void {
    this.open--;
  }

  /** Registers a listener's way of closing its unauthorized connections; returns the unregister. */
  onShed(shed: () => void): () => void {
    this.shedders.add(shed);
    return () => this.shedders.delete(shed);
  }

  shed(): void {
    for (const shed of this.shedders) shed();
  }
}
