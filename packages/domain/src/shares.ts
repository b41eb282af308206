import type { AlgorithmKey } from './algorithms.js';

/**
 * What a stratum node reports about one worker for one flush interval. Difficulty sums are numbers:
 * they are statistics, and the PPS credit derived from them later goes through exact decimals.
 */
export interface WorkerShareCounts {
  /** The account name of the stratum login `{account}.{worker}`. */
  account: string;
  worker: string;
  /** Sum of the difficulties of the accepted shares. */
  acceptedDifficulty: number;
  valid: number;
  invalid: number;
  stale: number;
  /** Epoch milliseconds of the last share (any outcome). */
  lastShareAt: number;
  /**
   * Epoch milliseconds of the last accepted share; absent when none was accepted in the batch (and in
   * batches of nodes from before it was sent).
   */
  lastAcceptedAt?: number;
  /** Counts of refused shares by reason code (for example `low-difficulty`, `duplicate`). */
  rejectReasons: Record<string, number>;
  /**
   * The highest difficulty an accepted share's hash achieved in the batch (not the difficulty it was
   * sent at): kept for solo workers only, whose dashboard shows their best share (docs/solo.md).
   */
  bestDifficulty?: number;
}

/**
 * One flush of one stratum node for one algorithm. `id` is unique (a UUID): accounting applies a
 * batch at most once in effect, whatever the bus redelivers.
 */
export interface ShareBatch {
  id: string;
  node: string;
  algorithm: AlgorithmKey;
  /** Epoch milliseconds, inclusive start and exclusive end of the interval. */
  intervalStart: number;
  intervalEnd: number;
  workers: WorkerShareCounts[];
  /**
   * The workers that mined on a solo port (docs/solo.md): counted in statistics like the others but
   * never valued by PPS. A separate list rather than a flag on each worker, so that a jobs process
   * older than the stratum node drops them (an unknown key) instead of crediting them as PPS shares.
   */
  soloWorkers?: WorkerShareCounts[];
  /**
   * The network the shares were mined against, from the node's newest job at flush time: what the
   * batch is valued at (PPS). Absent in batches from older nodes; accounting then uses the newest
   * network state it knows for the algorithm.
   */
  network?: BatchNetwork;
  /**
   * The aux chains the same shares were merge-mined against (SCRYPT: Dogecoin, Bellscoin), from the
   * same job: each values the shares again, in its own coin (docs/money.md, "Merged mining").
   */
  merged?: BatchNetwork[];
  /**
   * The worker connections that began or ended in the interval (docs/dashboard.md, "Connection
   * history"): they ride the batch so they reach the jobs role on the same durable bus and are written
   * once, with it. Absent when there were none (and in batches of older nodes).
   */
  connections?: ConnectionEvent[];
}

/** A stratum connection logged in as a worker (`connect`) or ended after it had (`disconnect`). */
export interface ConnectionEvent {
  account: string;
  worker: string;
  /** The session's id on its node (unique per node across restarts): its connect and disconnect share it. */
  session: string;
  event: 'connect' | 'disconnect';
  /** Epoch milliseconds. */
  at: number;
  /** Why it ended (a disconnect): `closed by miner`, `idle`, `too many bad shares`, `shutdown`, … */
  reason?: string;
  /** The miner's address range (/24 or /48), never the whole address. */
  ipRange?: string;
  /** The mining software as it named itself in `mining.subscribe`. */
  userAgent?: string;
}

export interface BatchNetwork {
  coin: string;
  height: number;
  /** Block reward (coinbase value) in the coin's smallest unit, decimal integer text. */
  reward: string;
  /**
   * The fees of the template's transactions inside `reward`, decimal integer text, when the node gave
   * every one of them and the coinbase pays no one else (FPPS needs it: docs/money.md, "FPPS").
   */
  fees?: string;
  /** Network difficulty in the algorithm's share-difficulty convention, exact decimal text. */
  difficulty: string;
  /** True on the demo network. */
  demo: boolean;
  /**
   * The difficulty of the target its blocks are found at, when it is not `difficulty`: the demo
   * network values shares at a real coin's difficulty but finds its blocks at its own easy target.
   * Rounds and effort count against this one (docs/blocks.md).
   */
  blockDifficulty?: string;
  /**
   * The chain's mean block interval now, in seconds, where it changes (CKB, per epoch): its network
   * hashrate is worked out with it instead of the coin catalogue's fixed `block_seconds`.
   */
  blockSeconds?: number;
}

/** A share that met the network target and was submitted to the coin daemon. */
export interface FoundBlock {
  /** Unique id of this report (UUID). */
  id: string;
  node: string;
  algorithm: AlgorithmKey;
  coin: string;
  height: number;
  /** Block hash, hex, as block explorers show it. */
  hash: string;
  /** Coinbase value in the coin's smallest unit, as a decimal string. */
  reward: string;
  account: string;
  worker: string;
  /** Share difficulty of the solving share. */
  difficulty: number;
  /**
   * The difficulty of the target the block met (the network's, in the algorithm's share-difficulty
   * convention), exact decimal text; absent in reports of nodes older than it. Its effort is measured
   * against it.
   */
  networkDifficulty?: string;
  foundAt: number;
  /**
   * The chain the block is on where the network braids several (Kadena's chain id, from the work it solved); absent
   * for coins of one chain and in reports of nodes older than it.
   */
  chain?: number;
  /** Found by a solo worker: the block's value goes to its finder at maturity, less the solo fee. */
  solo?: true;
  /** What the daemon said: accepted, or the reason it refused the block. */
  submitResult: { accepted: true } | { accepted: false; reason: string };
}
