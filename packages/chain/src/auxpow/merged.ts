import { readTransaction } from '../bitcoin/block.js';
import { hashFromRpcHex } from '../bitcoin/bytes.js';
import { ByteReader } from '../bitcoin/reader.js';
import type { BitcoinJob, SubmitBlockResult } from '../job.js';
import type { ChainLogger } from '../logger.js';
import type { AuxChainSource } from './auxChain.js';
import { type AuxSlot, auxMerkleCommitment, buildAuxPow, serializeAuxPow } from './auxpow.js';
import type { AuxBlock } from './auxRpc.js';

/** One aux chain's block as a parent job commits to it. */
export interface MergedChainWork extends AuxBlock {
  coin: string;
  /** Its slot in the aux tree of the job's commitment, with the branch to the root. */
  slot: AuxSlot;
  /**
   * The target shares are valued at when it is not `target` (the demo network's aux chains, like
   * BitcoinJob.valuationTarget).
   */
  valuationTarget?: bigint;
}

/** The aux chains a parent job is merge-mined with. */
export interface MergedWork {
  readonly chains: readonly MergedChainWork[];
  /** magic ‖ root ‖ size ‖ nonce, pushed into the parent coinbase's script. */
  readonly commitment: Buffer;
  /** The largest of the chains' targets: a share whose hash reads above it solves none of them. */
  readonly easiestTarget: bigint;
}

/** The commitment and slots for the aux blocks of the live chains; undefined when there are none. */
export function mergedWork(
  blocks: readonly (AuxBlock & { coin: string; valuationTarget?: bigint })[],
): MergedWork | undefined {
  if (blocks.length === 0) return undefined;
  const commitment = auxMerkleCommitment(new Map(blocks.map((b) => [b.chainId, hashFromRpcHex(b.hash, 'aux hash')])));
  const chains = blocks.map((block) => {
    const slot = commitment.slots.get(block.chainId);
    if (slot === undefined) throw new Error(`no aux slot for chain ${block.chainId}`);
    return { ...block, slot };
  });
  const easiestTarget = chains.reduce((max, c) => (c.target > max ? c.target : max), 0n);
  return { chains, commitment: commitment.script, easiestTarget };
}

/**
 * The AuxPoW of one aux chain for a share of a merge-mined parent job: the parent coinbase as the
 * share completes it (legacy serialization; its txid is what the parent's merkle root covers), the
 * job's coinbase branch, the chain's branch in the aux tree and the 80-byte parent header, as hex for
 * submitauxblock.
 */
export function shareAuxPow(
  job: Pick<BitcoinJob, 'coinbase1' | 'coinbase2' | 'merkleBranch'>,
  chain: Pick<MergedChainWork, 'slot'>,
  extranonce1: Uint8Array,
  extranonce2: Uint8Array,
  parentHeader: Uint8Array,
): string {
  const raw = Buffer.concat([
    Buffer.from(job.coinbase1, 'hex'),
    extranonce1,
    extranonce2,
    Buffer.from(job.coinbase2, 'hex'),
  ]);
  const coinbase = readTransaction(new ByteReader(raw));
  const auxpow = buildAuxPow({
    coinbase,
    coinbaseBranch: job.merkleBranch.map((h) => Buffer.from(h, 'hex')),
    parentHeader,
    slot: chain.slot,
  });
  return serializeAuxPow(auxpow).toString('hex');
}

/**
 * The aux chains merge-mined on one parent: their current blocks as one MergedWork (recomputed when
 * any of them changes or pauses), and the submission of a solved aux block to its own chain.
 */
export class MergedMining {
  private readonly chains: readonly AuxChainSource[];
  private readonly listeners = new Set<(work: MergedWork | undefined) => void>();
  private work: MergedWork | undefined;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    chains: readonly AuxChainSource[],
    private readonly logger?: ChainLogger,
  ) {
    const ids = new Set<number>();
    for (const chain of chains) {
      if (ids.has(chain.chainId)) throw new RangeError(`two aux chains share the chain id ${chain.chainId}`);
      ids.add(chain.chainId);
    }
    this.chains = chains;
  }

  get coins(): readonly string[] {
    return this.chains.map((c) => c.coin);
  }

  /** The aux work jobs commit to now. */
  current(): MergedWork | undefined {
    return this.work;
  }

  /** Called with the new aux work whenever a chain's block changes or a chain pauses or resumes. */
  onChange(listener: (work: MergedWork | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts every chain; one whose daemon is out of reach starts paused. */
  async start(): Promise<void> {
    for (const chain of this.chains) this.unsubscribe.push(chain.onChange(() => this.recompute()));
    await Promise.all(this.chains.map((c) => c.start()));
    this.recompute();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    await Promise.all(this.chains.map((c) => c.stop()));
  }

  /** Sends a solved aux block to its chain's daemon. */
  submit(chain: MergedChainWork, auxpowHex: string): Promise<SubmitBlockResult> {
    const source = this.chains.find((c) => c.chainId === chain.chainId);
    if (source === undefined) {
      return Promise.resolve({ accepted: false, hash: chain.hash, reason: `no aux chain with id ${chain.chainId}` });
    }
    return source.submit(chain, auxpowHex);
  }

  private recompute(): void {
    const blocks = this.chains.flatMap((c) => {
      const block = c.current();
      if (!block) return [];
      return [
        { ...block, coin: c.coin, ...(c.valuationTarget !== undefined && { valuationTarget: c.valuationTarget }) },
      ];
    });
    const next = mergedWork(blocks);
    if (sameWork(next, this.work)) return;
    this.work = next;
    for (const listener of this.listeners) {
      try {
        listener(next);
      } catch (error) {
        this.logger?.error({ err: error }, 'merged-mining listener failed');
      }
    }
  }
}

function sameWork(a: MergedWork | undefined, b: MergedWork | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.commitment.equals(b.commitment);
}
