/**
 * Replayed ckbminer sessions (BTC.com / ViaBTC CKB stratum, issue 17 §1) against a real Session over the
 * CKB dialect, with a job manager over real CKB jobs (templates rebuilt from real blocks). The miner side
 * is miner.ts, written from leifjacky/ckb-gominer-demo: it really hashes Eaglesong.
 */
import type { CkbJob } from '@lodestone/chain';
import { REAL_CKB_POW_BLOCK } from '@lodestone/chain/testing';
import { POW } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import type { SolvedBlock } from '../../stratum/dialects/dialect.js';
import { ExtranonceAllocator } from '../../stratum/extranonce.js';
import { JobManager } from '../../stratum/jobManager.js';
import { SILENT_LOG } from '../../stratum/log.js';
import { NO_METRICS } from '../../stratum/metrics.js';
import { DEFAULT_SESSION_LIMITS, Session } from '../../stratum/session.js';
import type { ShareOutcome } from '../../stratum/shareAggregator.js';
import { DEFAULT_VARDIFF } from '../../stratum/vardiff.js';
import { CkbDialect } from './dialect.js';
import { CkbMiner } from './miner.js';
import { CkbFixtureSource } from './testing.js';

const pow = POW.eaglesong;
const LOGIN = 'alice.k7';
const AGENT = 'ckbminer-v1.0.0';
/** One hash in 64 is a share: the tests find shares in a few hundred Eaglesong hashes. */
const DIFFICULTY = 64;

interface Message {
  id: number | null;
  method?: string;
  params?: unknown[];
  result?: unknown;
  error?: [number, string, unknown] | null;
}

interface Setup {
  source?: CkbFixtureSource;
  nonces?: ExtranonceAllocator;
  bounds?: { min: number; max: number };
}

/** A CKB port over `source`: sessions, what they credited, the blocks they handed off. */
function ckbPort(setup: Setup = {}) {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const source = setup.source ?? new CkbFixtureSource(undefined, () => clock.now);
  const jobs = new JobManager(source, { log: SILENT_LOG });
  jobs.start();
  const dialect = new CkbDialect(jobs, setup.nonces ?? new ExtranonceAllocator(0x0badcafe));
  const records: { worker: string; outcome: ShareOutcome }[] = [];
  const blocks: SolvedBlock[] = [];
  const bounds = setup.bounds ?? { min: DIFFICULTY, max: DIFFICULTY };

  const connect = (miner = new CkbMiner()) => {
    const out: Message[] = [];
    const answers = new Map<number, Message>();
    const closed: string[] = [];
    const session = new Session(
      {
        port: {
          algorithm: 'eaglesong',
          kind: 'standard',
          port: 3333,
          minDifficulty: bounds.min,
          maxDifficulty: bounds.max,
          startDifficulty: DIFFICULTY,
        },
        jobs,
        dialect,
        shares: {
          record(_algorithm, _account, worker, outcome) {
            records.push({ worker, outcome });
          },
          connection: () => undefined,
        },
        blocks: { submit: (candidate) => blocks.push(candidate.block) },
        authorize: async () => true,
        vardiff: DEFAULT_VARDIFF,
        limits: DEFAULT_SESSION_LIMITS,
        metrics: NO_METRICS,
        log: SILENT_LOG,
        now: () => clock.now,
      },
      {
        remoteAddress: '127.0.0.1',
        write: (text) => {
          for (const line of text.split('\n')) {
            if (line.length === 0) continue;
            const message = JSON.parse(line) as Message;
            out.push(message);
            if (message.method) miner.notification(message.method, message.params ?? [], line);
            else if (typeof message.id === 'number') answers.set(message.id, message);
          }
        },
        close: (reason) => closed.push(reason),
        setReadPaused() {},
      },
    );
    jobs.onJob((entry, clean) => session.onJob(entry, clean));
    let nextId = 1;
    /** Sends one line as ckbminer writes it and waits until the session answered it. */
    const request = async (method: string, params: unknown[]): Promise<Message> => {
      const id = nextId++;
      session.receive(JSON.stringify({ id, method, params }));
      for (let i = 0; i < 10 && !answers.has(id); i++) await new Promise((resolve) => setImmediate(resolve));
      const answer = answers.get(id);
      if (!answer) throw new Error(`no answer to ${method}`);
      return answer;
    };
    /** ckbminer's opening: subscribe, then authorize. */
    const open = async (subscribeParams = miner.subscribeParams(AGENT)) => {
      const subscribed = await request('mining.subscribe', subscribeParams);
      miner.subscribed(subscribed.result);
      const authorized = await request('mining.authorize', [LOGIN, 'x']);
      expect(authorized).toEqual({ id: 2, result: true, error: null });
      return subscribed;
    };
    const submit = (params: unknown[], worker = LOGIN, jobId = miner.jobId) =>
      request('mining.submit', [worker, jobId, ...params]);
    /** Finds a share (or, with `miss`, a hash above the target) of the current job and submits it. */
    const mine = async (miss = false) => {
      const found = miner.search(100_000, miss);
      if (!found.share) throw new Error('no share found');
      return { share: found.share, answer: await submit(found.share.params, LOGIN, found.share.jobId) };
    };
    return { session, miner, out, closed, request, open, submit, mine };
  };
  return { clock, source, jobs, records, blocks, connect };
}

const credited = (records: { outcome: ShareOutcome }[]) =>
  records.reduce((sum, r) => sum + (r.outcome.kind === 'valid' ? r.outcome.difficulty : 0), 0);
const hex64 = (n: bigint) => n.toString(16).padStart(64, '0');

describe('ckbminer against the CKB dialect', () => {
  it('2-parameter subscribe: [null, nonce1, 12]; set_target (the session target, 64 hex) before the first notify', async () => {
    const port = ckbPort();
    const miner = port.connect();
    const subscribed = await miner.open([AGENT, null]);
    expect(subscribed).toEqual({ id: 1, result: [null, '0badcafe', 12], error: null });

    const job = port.source.current();
    const notifications = miner.out.filter((m) => m.method);
    expect(notifications.map((m) => m.method)).toEqual(['mining.set_target', 'mining.notify']);
    expect(notifications[0]?.params).toEqual([hex64(pow.targetForDifficulty(DIFFICULTY))]);
    expect(notifications[0]?.params?.[0]).toHaveLength(64);
    expect(notifications[1]?.params).toEqual([
      '1',
      Buffer.from(job.powHash).toString('hex'),
      job.height,
      job.parentHash.slice(2),
      true,
    ]);

    const { share, answer } = await miner.mine();
    expect(answer).toEqual({ id: 3, result: true, error: null });
    expect(share.hashValue <= pow.targetForDifficulty(DIFFICULTY)).toBe(true);
    expect(port.records).toEqual([{ worker: 'k7', outcome: { kind: 'valid', difficulty: DIFFICULTY } }]);
    expect(port.blocks).toHaveLength(0);
  });

  it('4-parameter subscribe ([agent, null, host, port]) gets the same answer and mines', async () => {
    const port = ckbPort();
    const miner = port.connect(new CkbMiner({ fourParams: { host: 'ckb.pool.example', port: 10861 } }));
    expect(miner.miner.subscribeParams(AGENT)).toEqual([AGENT, null, 'ckb.pool.example', '10861']);
    const subscribed = await miner.open();
    expect(subscribed.result).toEqual([null, '0badcafe', 12]);
    for (let i = 0; i < 3; i++) expect((await miner.mine()).answer.result).toBe(true);
    expect(credited(port.records)).toBe(3 * DIFFICULTY);
  });

  it('answers mining.extranonce.subscribe with true and takes mining.suggest_difficulty before the first job', async () => {
    const port = ckbPort({ bounds: { min: 1, max: 2 ** 20 } });
    const miner = port.connect();
    await miner.request('mining.subscribe', [AGENT, null]);
    miner.miner.subscribed([null, '0badcafe', 12]);
    expect(await miner.request('mining.extranonce.subscribe', [])).toEqual({ id: 2, result: true, error: null });
    expect((await miner.request('mining.suggest_difficulty', [256])).result).toBe(true);
    expect((await miner.request('mining.authorize', [LOGIN, 'x'])).result).toBe(true);
    const target = miner.out.find((m) => m.method === 'mining.set_target');
    expect(target?.params).toEqual([hex64(pow.targetForDifficulty(256))]);
    expect((await miner.mine()).answer.result).toBe(true);
    expect(port.records).toEqual([{ worker: 'k7', outcome: { kind: 'valid', difficulty: 256 } }]);
  });

  it('refuses a hash above the share target as low difficulty, uncredited', async () => {
    const port = ckbPort();
    const miner = port.connect();
    await miner.open();
    const { share, answer } = await miner.mine(true);
    expect(share.hashValue > pow.targetForDifficulty(DIFFICULTY)).toBe(true);
    expect(answer.error).toEqual([23, 'Low difficulty share', null]);
    expect(port.records).toEqual([{ worker: 'k7', outcome: { kind: 'invalid', reason: 'low-difficulty' } }]);
  });

  it('accepts shares of an older job of the same parent; refuses them as stale once a new parent arrives', async () => {
    const port = ckbPort();
    const miner = port.connect();
    await miner.open();
    const old = miner.miner.search(100_000).share;
    const older = miner.miner.search(100_000).share;
    if (!old || !older) throw new Error('no share');

    port.source.refresh();
    const refreshed = miner.out.at(-1);
    expect(refreshed?.method).toBe('mining.notify');
    expect(refreshed?.params?.[4]).toBe(false);
    expect(await miner.submit(old.params, LOGIN, old.jobId)).toMatchObject({ result: true });

    port.source.newBlock();
    const clean = miner.out.at(-1);
    expect(clean?.params?.[4]).toBe(true);
    expect(clean?.params?.[3]).toBe(port.source.current().parentHash.slice(2));
    expect((await miner.submit(older.params, LOGIN, older.jobId)).error).toEqual([
      21,
      'Stale share (job of an older block)',
      null,
    ]);
    expect(port.records.map((r) => r.outcome.kind)).toEqual(['valid', 'stale']);
  });

  it('refuses the same 16 nonce bytes twice for a job, whatever the hex digits’ case', async () => {
    const port = ckbPort();
    const miner = port.connect();
    const nonce1 = ((await miner.open()).result as string[])[1] as string;
    const { share, answer } = await miner.mine();
    expect(answer.result).toBe(true);
    expect((await miner.submit(share.params)).error).toEqual([22, 'Duplicate share', null]);
    // ckbminer's nonce2 is decimal digits: grind one with letters, so that its capitals are other text
    // for the same bytes.
    const job = port.source.current();
    const target = pow.targetForDifficulty(DIFFICULTY);
    let nonce2 = '';
    for (let i = 0; nonce2 === ''; i++) {
      const candidate = `abcdef${i.toString(16).padStart(18, '0')}`;
      const value = pow.hashValue(pow.hash(job.powMessage(Buffer.from(nonce1 + candidate, 'hex'))));
      if (value <= target) nonce2 = candidate;
    }
    expect((await miner.submit([nonce2.toUpperCase()])).result).toBe(true);
    expect((await miner.submit([nonce2])).error).toEqual([22, 'Duplicate share', null]);
    expect(credited(port.records)).toBe(2 * DIFFICULTY);
  });

  it('gives each session its own nonce1; a nonce2 that would choose nonce1 (16 bytes) is refused', async () => {
    const port = ckbPort();
    const a = port.connect();
    const b = port.connect();
    const nonce1A = (await a.open()).result as unknown[];
    const nonce1B = (await b.open()).result as unknown[];
    expect(nonce1A[1]).not.toBe(nonce1B[1]);

    // A share of session A, sent by B with A's nonce1 in front: wrong length.
    const { share } = await a.mine();
    const foreign = `${nonce1A[1]}${share.params[0]}`;
    expect((await b.submit([foreign], LOGIN, share.jobId)).error).toEqual([
      20,
      'Invalid nonce2 (expected 24 hex digits: 12 bytes)',
      null,
    ]);

    // A's nonce2 alone, sent by B, is B's work (B's nonce1 in front): find one that is no share for B.
    const job = port.source.current() as CkbJob;
    const target = pow.targetForDifficulty(DIFFICULTY);
    const valueFor = (nonce1: string, nonce2: string) =>
      pow.hashValue(pow.hash(job.powMessage(Buffer.from(nonce1 + nonce2, 'hex'))));
    let stolen: string | undefined;
    for (let i = 0; i < 50 && stolen === undefined; i++) {
      const found = a.miner.search(100_000).share;
      const nonce2 = found?.params[0] as string;
      if (valueFor(String(nonce1B[1]), nonce2) > target) stolen = nonce2;
    }
    if (!stolen) throw new Error('no share of A that misses for B');
    expect(valueFor(String(nonce1A[1]), stolen) <= target).toBe(true);
    expect((await b.submit([stolen], LOGIN, share.jobId)).error).toEqual([23, 'Low difficulty share', null]);
    expect(port.records.filter((r) => r.outcome.kind === 'valid')).toHaveLength(1);
  });

  it('answers malformed submits with an error and credits nothing', async () => {
    const port = ckbPort();
    const miner = port.connect();
    await miner.open();
    const { share } = await miner.mine();
    const good = share.params[0] as string;
    const cases: [unknown[], [number, string, null]][] = [
      [[], [20, 'Malformed request: nonce2 must be a string of hex digits', null]],
      [[12345], [20, 'Malformed request: nonce2 must be a string of hex digits', null]],
      [[null], [20, 'Malformed request: nonce2 must be a string of hex digits', null]],
      [[good.slice(1)], [20, 'Invalid nonce2 (expected 24 hex digits: 12 bytes)', null]],
      [[`${good}00`], [20, 'Invalid nonce2 (expected 24 hex digits: 12 bytes)', null]],
      [[`zz${good.slice(2)}`], [20, 'Invalid nonce2 (expected 24 hex digits: 12 bytes)', null]],
      [[`0x${good.slice(2)}`], [20, 'Invalid nonce2 (expected 24 hex digits: 12 bytes)', null]],
    ];
    for (const [params, error] of cases) expect((await miner.submit(params)).error).toEqual(error);
    // A job id the session never sent.
    expect((await miner.submit([good], LOGIN, 'ffff')).error).toEqual([21, 'Job not found', null]);
    expect((await miner.submit([good], LOGIN, 'not-hex')).error).toEqual([21, 'Job not found', null]);
    expect((await miner.request('mining.submit', [LOGIN])).error?.[0]).toBe(20);
    expect(credited(port.records)).toBe(DIFFICULTY);
    expect(miner.closed).toEqual([]);
  });

  it('a new difficulty goes out with the next job: set_target, then that job’s notify', async () => {
    const port = ckbPort({ bounds: { min: 1, max: 2 ** 20 } });
    const miner = port.connect();
    await miner.open();
    expect((await miner.request('mining.suggest_difficulty', [512])).result).toBe(true);
    // The job in hand is not re-sent (its work would be the same pow_hash): shares keep its difficulty.
    expect(miner.out.filter((m) => m.method === 'mining.notify')).toHaveLength(1);
    expect((await miner.mine()).answer.result).toBe(true);
    port.source.refresh();
    const [setTarget, notify] = miner.out.slice(-2);
    expect(setTarget).toMatchObject({ method: 'mining.set_target', params: [hex64(pow.targetForDifficulty(512))] });
    expect(notify).toMatchObject({ method: 'mining.notify' });
    expect((await miner.mine()).answer.result).toBe(true);
    expect(port.records.map((r) => (r.outcome.kind === 'valid' ? r.outcome.difficulty : 0))).toEqual([DIFFICULTY, 512]);
  });
});

describe('a real CKB block through the dialect', () => {
  it('mainnet block 76245: its nonce, split as nonce1 ‖ nonce2, is a block candidate with the real hash', async () => {
    const real = REAL_CKB_POW_BLOCK;
    const nonce1 = Buffer.from(real.nonce16.subarray(0, 4));
    const source = new CkbFixtureSource([real]);
    const port = ckbPort({ source, nonces: new ExtranonceAllocator(nonce1.readUInt32BE()) });
    const miner = port.connect();
    expect((await miner.open()).result).toEqual([null, nonce1.toString('hex'), 12]);
    const nonce2 = Buffer.from(real.nonce16.subarray(4)).toString('hex');
    expect(await miner.submit([nonce2])).toMatchObject({ result: true });

    expect(port.records).toEqual([{ worker: 'k7', outcome: { kind: 'valid', difficulty: DIFFICULTY } }]);
    expect(port.blocks).toHaveLength(1);
    const block = port.blocks[0] as SolvedBlock;
    expect(block.hash).toBe(real.hash);
    expect(await block.submit()).toEqual({ accepted: true, hash: real.hash });
    const submitted = source.submitted[0];
    expect(submitted?.job).toBe(source.current());
    // The header nonce is the 16 bytes read little-endian: the real block's nonce.
    expect(submitted?.block.header.nonce).toBe('0x91c4b4746ffb69fe000000809a170200');
    expect(submitted?.block.transactions).toEqual([real.template().cellbase.data]);
  });
});
