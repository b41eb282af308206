/**
 * A Kaspa job source for unit tests: real Kaspa jobs (createKaspaJob over real blocks of rusty-kaspa's
 * goref DAG, served as templates) on a clock the test moves, with block submissions recorded instead
 * of sent to kaspad. `nextJob` is a refreshed template on the same parents (a later timestamp and
 * DAA score, so other work); `newBlock` moves to the next real block (other parents: older jobs are stale). `bits`
 * replaces the blocks' compact target, to make blocks as easy as a test needs.
 */
import {
  createKaspaJob,
  type KaspaBlockSubmission,
  type KaspaJob,
  parseJsonExact,
  readBlockTemplate,
  type SubmitBlockResult,
} from '@lodestone/chain';
import { realKaspaBlocks } from '@lodestone/chain/testing';
import { FixtureWorkSource } from '../../stratum/testing/fixtureWorkSource.js';

export interface KaspaFixtureOptions {
  now: () => number;
  /** Compact target of every job (default: the real blocks' devnet bits, 0x1e21bc1c). */
  bits?: number;
}

export class KaspaFixtureSource extends FixtureWorkSource<KaspaJob, KaspaBlockSubmission> {
  readonly algorithm = 'kheavyhash' as const;
  readonly submitted: { job: KaspaJob; block: KaspaBlockSubmission }[] = [];
  private readonly blocks = realKaspaBlocks();
  private block = 1;
  private refresh = 0;
  private daaOffset = 0n;
  private nextId = 1;

  constructor(private readonly options: KaspaFixtureOptions) {
    super();
    this.job = this.make(true);
  }

  /** Never undefined: the first job is made with the source. */
  override current(): KaspaJob {
    return this.job as KaspaJob;
  }

  /**
   * A refreshed template on the same parents, `daaStep` DAA scores on (the network moved: at 10 blocks
   * a second, about 10 a job).
   */
  nextJob(daaStep = 10n): KaspaJob {
    this.refresh++;
    this.daaOffset += daaStep;
    return this.publish(this.make(false));
  }

  /** The same template again under a new job id: the same pre_pow_hash and timestamp, so the same work. */
  reissue(): KaspaJob {
    return this.publish(this.make(false));
  }

  /** The next real block: new parents. */
  newBlock(): KaspaJob {
    this.block = (this.block + 1) % this.blocks.length;
    this.refresh = 0;
    this.daaOffset = 0n;
    return this.publish(this.make(true));
  }

  async submitBlock(job: KaspaJob, block: KaspaBlockSubmission): Promise<SubmitBlockResult> {
    this.submitted.push({ job, block });
    const nonce = (block.header as { nonce: bigint }).nonce;
    return { accepted: true, hash: job.blockHash(nonce) };
  }

  private make(clean: boolean): KaspaJob {
    const raw = parseJsonExact(this.blocks[this.block] as string) as { header: Record<string, unknown> };
    const header = raw.header;
    header.timestamp = BigInt(header.timestamp as number | bigint) + BigInt(1000 * this.refresh);
    header.daaScore = BigInt(header.daaScore as number | bigint) + this.daaOffset;
    if (this.options.bits !== undefined) header.bits = this.options.bits;
    const template = readBlockTemplate({ block: raw, isSynced: true });
    return createKaspaJob(template.block, {
      id: String(this.nextId++),
      cleanJobs: clean,
      createdAt: this.options.now(),
    });
  }
}
