import { DemoJobSource } from '@lodestone/chain';
import { describe, expect, it } from 'vitest';
import { notifyLine } from '../../chains/bitcoin/dialect.js';
import { FixtureJobSource } from '../testing/fixtureJobs.js';
import { buildHeader, parseNotify } from './work.js';

/** What a miner reads from the notify line the server sends for a job. */
function minerView(job: Parameters<typeof notifyLine>[1]) {
  const message = JSON.parse(notifyLine('2a', job, true)) as { params: unknown[] };
  return parseNotify(message.params);
}

describe('the client rebuilds the header the server checks', () => {
  const en1 = Buffer.from('01020304', 'hex');
  const en2 = Buffer.from('a0b0c0d0', 'hex');

  it('for the demo network’s jobs (chain package)', async () => {
    for (const algorithm of ['sha256', 'scrypt'] as const) {
      const source = new DemoJobSource({ algorithm });
      await source.start();
      const job = source.current();
      if (!job) throw new Error('no job');
      const view = minerView(job);
      expect(view).toMatchObject({ jobId: '2a', version: job.version, ntime: job.curtime, cleanJobs: true });
      const version = (job.version | 0x00004000) >>> 0;
      const fromClient = buildHeader(
        view,
        en1.toString('hex'),
        en2.toString('hex'),
        job.curtime + 5,
        0xdeadbeef,
        version,
      );
      const fromJob = Buffer.from(job.header(en1, en2, job.curtime + 5, 0xdeadbeef, version));
      expect(fromClient.toString('hex')).toBe(fromJob.toString('hex'));
      await source.stop();
    }
  });

  it('for the test fixture’s jobs', () => {
    const job = new FixtureJobSource({ algorithm: 'sha256' }).current();
    if (!job) throw new Error('no job');
    const fromClient = buildHeader(minerView(job), '01020304', 'a0b0c0d0', job.curtime, 7, job.version);
    expect(fromClient.toString('hex')).toBe(
      Buffer.from(job.header(en1, en2, job.curtime, 7, job.version)).toString('hex'),
    );
  });

  it('refuses malformed notify params', () => {
    expect(() => parseNotify(['1', 'zz'])).toThrow();
    expect(() => parseNotify(['1', '00'.repeat(32), '', '', 'x', '20000000', '1d00ffff', '00000000', true])).toThrow();
  });
});
