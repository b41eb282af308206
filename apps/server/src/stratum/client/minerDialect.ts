/**
 * The miner's side of a stratum dialect, as our test clients, the benchmark and the demo fleet speak
 * it: what to send at subscribe, what the server's notifications mean (difficulty or target, nonce
 * space, jobs), and a real search for shares over the current job. One implementation per server
 * dialect (chains/<family>/miner.ts beside its dialect.ts), written from the coin's published miner behaviour, not from our server
 * code, so that a test through it checks the server.
 */
export interface MinerDialect {
  /** mining.subscribe's parameters as this miner sends them. */
  subscribeParams(agent: string): unknown[];
  /** Reads the subscribe answer (nonce space). Throws when it is not this dialect's. */
  subscribed(result: unknown): void;
  /**
   * Reads one notification (`line` is the raw JSON text: Kaspa's legacy job carries integers above
   * 2^53 that JSON.parse would round). Unknown methods are ignored.
   */
  notification(method: string, params: readonly unknown[], line: string): void;
  /** True once the miner has a job and a share target. */
  readonly ready: boolean;
  /** The current job's id, as sent. */
  readonly jobId: string | undefined;
  /** The current share difficulty in the server's convention (POW[algorithm].targetForDifficulty). */
  readonly difficulty: number | undefined;
  /**
   * Hashes up to `maxHashes` candidates of the current job from where the last search stopped;
   * returns the submit parameters after `[worker, jobId]` of the first share that meets the target
   * (or, with `miss`, does not), and the hashes tried.
   */
  search(maxHashes: number, miss?: boolean): MinerSearch;
}

export interface MinerSearch {
  hashes: number;
  share: { jobId: string; params: unknown[]; hashValue: bigint } | undefined;
}
