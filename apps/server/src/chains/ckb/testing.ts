/**
 * A CKB job source for tests: real CKB jobs (createCkbJob over templates rebuilt from real blocks,
 * @lodestone/chain/testing) played in chain order, with block submissions recorded instead of sent to a
 * node. The stand-in CKB node (startCkbNode) is the end-to-end counterpart.
 */
import {
  type CkbJob,
  type CkbJsonBlock,
  ckbHeaderHash,
  createCkbJob,
  type SubmitBlockResult,
  toCkbUint,
} from '@lodestone/chain';
import { REAL_CKB_CHAIN, type RealCkbBlock } from '@lodestone/chain/testing';
import { FixtureWorkSource } from '../../stratum/testing/fixtureWorkSource.js';

export class CkbFixtureSource extends FixtureWorkSource<CkbJob, CkbJsonBlock> {
  readonly algorithm = 'eaglesong' as const;
  /** Every block submitted, with the job it was solved for. */
  readonly submitted: { job: CkbJob; block: CkbJsonBlock }[] = [];
  private index = 0;
  private refreshes = 0;
  private nextId = 1;

  constructor(
    private readonly blocks: readonly RealCkbBlock[] = REAL_CKB_CHAIN,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.job = this.make(true);
  }

  /** Never undefined: the first job is made with the source. */
  override current(): CkbJob {
    return this.job as CkbJob;
  }

  /** The next block's template: a new parent, so a clean job and every older job stale. */
  newBlock(): CkbJob {
    if (this.index + 1 >= this.blocks.length) throw new Error('no more fixture blocks');
    this.index++;
    return this.publish(this.make(true));
  }

  /**
   * The same parent, a new template (the node raised current_time by a millisecond and gave a new
   * work_id): new work in a job that is not clean.
   */
  refresh(): CkbJob {
    this.refreshes++;
    return this.publish(this.make(false));
  }

  /**
   * The same template under a new job id and work_id: the same pow_hash, so the same work (a source that
   * re-published an unchanged template would make this).
   */
  reissue(): CkbJob {
    return this.publish(this.make(false));
  }

  async submitBlock(job: CkbJob, block: CkbJsonBlock): Promise<SubmitBlockResult> {
    this.submitted.push({ job, block });
    return { accepted: true, hash: ckbHeaderHash(block.header) };
  }

  private make(cleanJobs: boolean): CkbJob {
    const id = this.nextId++;
    const real = this.blocks[this.index] as RealCkbBlock;
    const template = real.template(id);
    if (cleanJobs) this.refreshes = 0;
    else template.current_time = toCkbUint(BigInt(template.current_time) + BigInt(this.refreshes));
    return createCkbJob(template, { id: id.toString(16), cleanJobs, createdAt: this.now() });
  }
}
