import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FoundBlock } from '@lodestone/domain';
import { describe, expect, it, vi } from 'vitest';
import { type BlockCandidate, BlockSubmitter, SUBMISSION_CUT_SHORT } from './blocks.js';
import { SILENT_LOG } from './log.js';
import { NO_METRICS } from './metrics.js';
import { readJournal, ShareJournal } from './shareJournal.js';
import { fixtureJob } from './testing/fixtureJobs.js';

/** A block candidate the daemon accepts. */
function candidate(): BlockCandidate {
  const job = fixtureJob({
    algorithm: 'sha256',
    id: '1',
    height: 840_000,
    prevHash: Buffer.alloc(32, 7),
    networkTarget: 1n << 200n,
    cleanJobs: true,
    curtime: 1_700_000_000,
  });
  const hash = '00'.repeat(8) + 'ab'.repeat(24);
  return {
    block: { job, hash, submit: async () => ({ accepted: true, hash }) },
    account: 'olga',
    worker: 'rig1',
    difficulty: 2,
  };
}

/** A bus that refuses found blocks while `down`, and keeps those it takes. */
function bus() {
  return {
    down: true,
    taken: [] as FoundBlock[],
    async publishFoundBlock(block: FoundBlock) {
      if (this.down) throw new Error('stream unavailable');
      this.taken.push(structuredClone(block));
    },
  };
}

/**
 * Issue 32, point 2: publishing a found block gave up after about 36 s ("record it by hand"), and
 * nothing kept it: a bus outage or a kill meanwhile lost the block's record.
 */
describe('found blocks', () => {
  it('are published until the bus takes them, however long it is down', async () => {
    const target = bus();
    const submitter = new BlockSubmitter({
      node: 'n1',
      bus: target,
      log: SILENT_LOG,
      metrics: NO_METRICS,
      publishRetryDelaysMs: [1, 2],
    });
    const publish = vi.spyOn(target, 'publishFoundBlock');
    submitter.submit(candidate());
    // Far past the attempts the delays list: the last delay repeats.
    await vi.waitFor(() => expect(publish.mock.calls.length).toBeGreaterThan(20));
    target.down = false;
    await vi.waitFor(() => expect(target.taken).toHaveLength(1));
    expect(target.taken[0]).toMatchObject({ account: 'olga', height: 840_000, submitResult: { accepted: true } });
    await submitter.drain();
  });

  it('are kept in the journal until the bus takes them, and published again after a restart', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'lodestone-blocks-'));
    const first = ShareJournal.open({ directory });
    const down = bus();
    const before = new BlockSubmitter({
      node: 'n1',
      bus: down,
      log: SILENT_LOG,
      metrics: NO_METRICS,
      publishRetryDelaysMs: [5],
      journal: first.journal,
    });
    before.submit(candidate());
    await vi.waitFor(() => expect(readJournal(directory, 0).blocks).toHaveLength(1));
    // The process stops (or dies) while the bus is still down.
    await before.drain();
    first.journal.close();

    const second = ShareJournal.open({ directory });
    expect(second.recovered.blocks).toHaveLength(1);
    const up = bus();
    up.down = false;
    const after = new BlockSubmitter({
      node: 'n1',
      bus: up,
      log: SILENT_LOG,
      metrics: NO_METRICS,
      journal: second.journal,
    });
    after.resend(second.recovered.blocks);
    await vi.waitFor(() => expect(up.taken).toHaveLength(1));
    expect(up.taken[0]).toEqual(second.recovered.blocks[0]);
    await after.drain();
    second.journal.close();

    // Taken: a later start has nothing to publish.
    const third = ShareJournal.open({ directory });
    expect(third.recovered.blocks).toEqual([]);
    third.journal.close();
  });

  it('are journaled before the daemon is asked: a process killed during a long submission leaves the record', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'lodestone-blocks-'));
    const first = ShareJournal.open({ directory });
    const hanging = candidate();
    // The daemon is out of reach: the submission goes on retrying when the process dies.
    hanging.block.submit = () => new Promise(() => {});
    const before = new BlockSubmitter({
      node: 'n1',
      bus: bus(),
      log: SILENT_LOG,
      metrics: NO_METRICS,
      journal: first.journal,
    });
    before.submit(hanging);
    first.journal.close();

    const second = ShareJournal.open({ directory });
    expect(second.recovered.blocks).toEqual([
      expect.objectContaining({
        hash: hanging.block.hash,
        account: 'olga',
        submitResult: { accepted: false, reason: SUBMISSION_CUT_SHORT },
      }),
    ]);
    second.journal.close();
  });
});
