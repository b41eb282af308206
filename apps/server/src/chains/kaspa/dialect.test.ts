/**
 * Replayed Kaspa miners against a real Session and the Kaspa dialect: IceRiver, Bitmain, BzMiner and
 * lolMiner sessions line by line, in their message forms (miner.ts), over real Kaspa jobs
 * (real blocks of rusty-kaspa's goref DAG as templates, testing.ts). Every share is a
 * real kHeavyHash; the miner computes its target as ASIC firmware does.
 */
import type { KaspaJob } from '@lodestone/chain';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlockCandidate } from '../../stratum/blocks.js';
import { ExtranonceAllocator } from '../../stratum/extranonce.js';
import { JobManager } from '../../stratum/jobManager.js';
import { SILENT_LOG } from '../../stratum/log.js';
import { NO_METRICS } from '../../stratum/metrics.js';
import { DEFAULT_SESSION_LIMITS, Session } from '../../stratum/session.js';
import type { ShareOutcome } from '../../stratum/shareAggregator.js';
import { DEFAULT_VARDIFF } from '../../stratum/vardiff.js';
import { KaspaDialect } from './dialect.js';
import { KaspaMiner, type KaspaMinerKind } from './miner.js';
import { KaspaFixtureSource } from './testing.js';

const LOGIN = 'alice.rig1';
/** One hash in 64 meets it (difficulty 1 = 2^32 hashes). */
const EASY = 2 ** -26;

interface Reply {
  id: number;
  result: unknown;
  error: [number, string, unknown] | null;
}

interface Rig {
  session: Session<KaspaJob>;
  miner: KaspaMiner;
  source: KaspaFixtureSource;
  /** Every line the session wrote, in order. */
  lines: string[];
  outcomes: ShareOutcome[];
  blocks: BlockCandidate[];
  closed: string[];
  clock: { now: number };
  call(method: string, params: unknown[]): Promise<Reply>;
  /** Handshake: subscribe and authorize; returns the lines written after the authorize answer. */
  start(): Promise<string[]>;
  submit(jobId: string, params: unknown[]): Promise<Reply>;
  /** Finds a share (or a miss) on the miner's current job and submits it. */
  mine(miss?: boolean): Promise<{ reply: Reply; jobId: string; params: unknown[] }>;
  credited(): number;
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function rig(
  kind: KaspaMinerKind,
  port: { start?: number; min?: number; max?: number; bits?: number; extranonce?: number } = {},
): Rig {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const now = () => clock.now;
  const source = new KaspaFixtureSource({ now, ...(port.bits !== undefined && { bits: port.bits }) });
  const jobs = new JobManager(source, { log: SILENT_LOG });
  jobs.start();
  const miner = new KaspaMiner(kind);
  const lines: string[] = [];
  const outcomes: ShareOutcome[] = [];
  const blocks: BlockCandidate[] = [];
  const closed: string[] = [];
  const replies = new Map<number, Reply>();
  const session = new Session<KaspaJob>(
    {
      port: {
        algorithm: 'kheavyhash',
        kind: 'standard',
        port: 5555,
        minDifficulty: port.min ?? 2 ** -30,
        maxDifficulty: port.max ?? 2 ** 20,
        startDifficulty: port.start ?? EASY,
      },
      jobs,
      dialect: new KaspaDialect(jobs, new ExtranonceAllocator(port.extranonce ?? 0x1234, 2)),
      shares: { record: (_a, _account, _worker, outcome) => outcomes.push(outcome), connection: () => undefined },
      blocks: { submit: (candidate) => blocks.push(candidate) },
      authorize: async () => true,
      vardiff: DEFAULT_VARDIFF,
      limits: DEFAULT_SESSION_LIMITS,
      metrics: NO_METRICS,
      log: SILENT_LOG,
      now,
    },
    {
      remoteAddress: '127.0.0.1',
      write: (text) => {
        for (const line of text.split('\n')) {
          if (line.length === 0) continue;
          lines.push(line);
          const message = JSON.parse(line) as { id?: unknown; method?: string; params?: unknown[] } & Reply;
          if (typeof message.method === 'string') miner.notification(message.method, message.params ?? [], line);
          else if (typeof message.id === 'number') replies.set(message.id, message);
        }
      },
      close: (reason) => closed.push(reason),
      setReadPaused() {},
    },
  );
  const unsubscribe = jobs.onJob((entry, clean) => session.onJob(entry, clean));
  stops.push(() => {
    unsubscribe();
    jobs.stop();
  });
  let nextId = 1;
  const call = async (method: string, params: unknown[]): Promise<Reply> => {
    const id = nextId++;
    session.receive(JSON.stringify({ id, method, params }));
    await new Promise((resolve) => setImmediate(resolve));
    const reply = replies.get(id);
    if (!reply) throw new Error(`no answer to ${method}`);
    return reply;
  };
  const r: Rig = {
    session,
    miner,
    source,
    lines,
    outcomes,
    blocks,
    closed,
    clock,
    call,
    async start() {
      const subscribed = await call('mining.subscribe', miner.subscribeParams(miner.agent));
      miner.subscribed(subscribed.result);
      const before = lines.length;
      const authorized = await call('mining.authorize', [LOGIN, 'x']);
      expect(authorized.result).toBe(true);
      return lines.slice(before + 1);
    },
    submit: (jobId, params) => call('mining.submit', [LOGIN, jobId, ...params]),
    async mine(miss = false) {
      const found = miner.search(100_000, miss);
      if (!found.share) throw new Error('no share in 100,000 hashes');
      const { jobId, params } = found.share;
      return { reply: await r.submit(jobId, params), jobId, params };
    },
    credited: () => outcomes.reduce((sum, o) => sum + (o.kind === 'valid' ? o.difficulty : 0), 0),
  };
  return r;
}

const isPowerOfTwo = (d: number) => Number.isInteger(Math.log2(d));

describe('Kaspa handshake per miner class', () => {
  it('IceRiver: set_extranonce, set_difficulty and the big job right after authorize, bare notifications', async () => {
    const r = rig('iceriver', { start: 3e-8 });
    const after = await r.start();
    expect(JSON.parse(r.lines[0] as string).result).toEqual([true, 'EthereumStratum/1.0.0']);
    const job = r.source.current();
    const timestamp = Buffer.alloc(8);
    timestamp.writeBigUInt64LE(job.timestamp);
    expect(after).toEqual([
      '{"method":"mining.set_extranonce","params":["1234"]}',
      // 3e-8 is not a power of two: an IceRiver gets the nearest one (2^-25 ≈ 2.98e-8)
      `{"id":null,"method":"mining.set_difficulty","params":[${2 ** -25}]}`,
      `{"method":"mining.notify","params":["1","${Buffer.from(job.prePowHash).toString('hex')}${timestamp.toString('hex')}"]}`,
    ]);
    expect(r.miner.extranonce).toBe('1234');
    expect(r.miner.ready).toBe(true);
  });

  it('subscribe comes before authorize in the lines: the subscribe answer is the first line', async () => {
    const r = rig('iceriver');
    await r.start();
    expect(JSON.parse(r.lines[0] as string)).toMatchObject({ id: 1, result: [true, 'EthereumStratum/1.0.0'] });
    expect(JSON.parse(r.lines[1] as string)).toMatchObject({ id: 2, result: true });
  });

  it('Bitmain: [null, extranonce, 6], set_extranonce with its size, the legacy job with integers above 2^53 written exactly', async () => {
    const r = rig('bitmain', { start: 3e-8 });
    const after = await r.start();
    expect(JSON.parse(r.lines[0] as string).result).toEqual([null, '1234', 6]);
    const job = r.source.current();
    const view = new DataView(job.prePowHash.buffer, job.prePowHash.byteOffset, 32);
    const words = [0, 8, 16, 24].map((o) => view.getBigUint64(o, true));
    expect(words.some((w) => w > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect(job.timestamp).toBeGreaterThan(0n);
    expect(after).toEqual([
      '{"id":null,"method":"mining.set_extranonce","params":["1234",6]}',
      `{"id":null,"method":"mining.set_difficulty","params":[${2 ** -25}]}`,
      `{"id":null,"method":"mining.notify","params":["1",[${words.join(',')}],${job.timestamp}]}`,
    ]);
    // the miner read the words from the raw line and hashes the right work: its shares are accepted
    const { reply } = await r.mine();
    expect(reply).toMatchObject({ result: true, error: null });
  });

  it('BzMiner: the big job with an id; lolMiner and Goldshell: the legacy job; none of them shaped to powers of two', async () => {
    const bz = rig('bzminer');
    const [, , notify] = await bz.start();
    expect(notify).toMatch(/^\{"id":null,"method":"mining\.notify","params":\["1","[0-9a-f]{80}"\]\}$/);
    const lol = rig('lolminer', { start: 3e-8 });
    const [, difficulty, legacy] = await lol.start();
    // before subscribe a session's start is a power of two (the class is not known yet)
    expect(difficulty).toBe(`{"id":null,"method":"mining.set_difficulty","params":[${2 ** -25}]}`);
    expect(legacy).toMatch(/^\{"id":null,"method":"mining\.notify","params":\["1",\[\d+,\d+,\d+,\d+\],\d+\]\}$/);
    await lol.call('mining.suggest_difficulty', [3e-8]);
    lol.source.nextJob();
    const set = lol.lines.filter((l) => l.includes('set_difficulty')).at(-1) as string;
    expect(JSON.parse(set).params).toEqual([3e-8]);
  });

  it('mining.extranonce.subscribe is answered true; unknown methods are errors', async () => {
    const r = rig('goldshell');
    await r.start();
    expect((await r.call('mining.extranonce.subscribe', [])).result).toBe(true);
    expect((await r.call('mining.get_transactions', [])).error?.[1]).toBe('Unknown method mining.get_transactions');
  });
});

describe.each<KaspaMinerKind>(['iceriver', 'bitmain', 'bzminer', 'lolminer'])('Kaspa shares: %s', (kind) => {
  it('valid, low-difficulty, duplicate, stale and foreign-nonce shares', async () => {
    const r = rig(kind);
    await r.start();
    const valid = await r.mine();
    expect(valid.reply).toMatchObject({ result: true, error: null });
    expect(r.outcomes).toEqual([{ kind: 'valid', difficulty: EASY }]);

    const low = await r.mine(true);
    expect(low.reply.error).toEqual([23, 'Low difficulty share', null]);

    const again = await r.submit(valid.jobId, valid.params);
    expect(again.error).toEqual([22, 'Duplicate share', null]);

    // another session's extranonce in the high bytes of a full nonce
    const found = r.miner.search(100_000).share;
    if (!found) throw new Error('no share');
    const own = BigInt(`0x${String(found.params.at(-1)).replace(/^0x/, '')}`) & ((1n << 48n) - 1n);
    const foreign = ((0x1235n << 48n) | own).toString(16).padStart(16, '0');
    const foreignParams = kind === 'lolminer' ? [...found.params.slice(0, 2), foreign] : [foreign];
    const refused = await r.submit(found.jobId, foreignParams);
    expect(refused.error).toEqual([20, "Nonce outside this session's extranonce", null]);
    // the honest share of that nonce is still good
    expect((await r.submit(found.jobId, found.params)).result).toBe(true);

    // a share of a job of the previous block is stale
    const old = r.miner.search(100_000).share;
    if (!old) throw new Error('no share');
    r.source.newBlock();
    expect(r.miner.jobId).toBe('2');
    const stale = await r.submit(old.jobId, old.params);
    expect(stale.error).toEqual([21, 'Stale share (job of an older block)', null]);
    expect((await r.mine()).reply.result).toBe(true);

    expect(r.outcomes.map((o) => o.kind)).toEqual([
      'valid',
      'invalid',
      'invalid',
      'invalid',
      'valid',
      'stale',
      'valid',
    ]);
    expect(r.credited()).toBe(3 * EASY);
    expect(r.closed).toEqual([]);
  });

  it('malformed submits are errors, never credited, and never crash', async () => {
    const r = rig(kind);
    await r.start();
    const jobId = r.miner.jobId as string;
    const bad: unknown[][] = [
      [],
      [12345],
      [null],
      ['zz'],
      ['0x'],
      ['12345678901234567'],
      [{ nonce: '00' }],
      ['ab', 'cd', 7],
    ];
    for (const params of bad) {
      const reply = await r.submit(jobId, params);
      expect(reply.result).toBeNull();
      expect(reply.error?.[0]).toBe(20);
    }
    expect((await r.call('mining.submit', [LOGIN])).error?.[0]).toBe(20);
    expect((await r.submit('not-a-number', ['00'])).error).toEqual([21, 'Job not found', null]);
    expect(r.outcomes.every((o) => o.kind !== 'valid')).toBe(true);
    expect(r.credited()).toBe(0);
    // the session still mines
    expect((await r.mine()).reply.result).toBe(true);
  });
});

describe('Kaspa job ids and difficulties', () => {
  it('IceRiver: a share submitted under the next job id is credited for the job it was found on', async () => {
    const r = rig('iceriver');
    await r.start();
    const found = r.miner.search(100_000).share;
    if (!found) throw new Error('no share');
    r.source.nextJob();
    expect(r.miner.jobId).toBe('2');
    const reply = await r.submit('2', found.params);
    expect(reply.result).toBe(true);
    expect(r.outcomes).toEqual([{ kind: 'valid', difficulty: EASY }]);
    // the nonce is now seen for job 1: sent again under either id it is a duplicate
    expect((await r.submit('2', found.params)).error?.[0]).toBe(22);
    expect((await r.submit('1', found.params)).error?.[0]).toBe(22);
    expect(r.credited()).toBe(EASY);
  });

  it('a share of an earlier job of the same parents is paid while that job is at most 50 DAA behind', async () => {
    const r = rig('goldshell');
    await r.start();
    const first = r.miner.search(100_000).share;
    if (!first) throw new Error('no share');
    const second = r.miner.search(100_000).share;
    if (!second) throw new Error('no share');
    r.source.nextJob(50n);
    expect((await r.submit(first.jobId, first.params)).result).toBe(true);
    r.source.nextJob(1n);
    expect((await r.submit(second.jobId, second.params)).error).toEqual([21, 'Stale share (job too far behind)', null]);
    expect(r.outcomes.map((o) => o.kind)).toEqual(['valid', 'stale']);
    // a new job on the newest work is mined as usual
    expect(r.miner.jobId).toBe('3');
    expect((await r.mine()).reply.result).toBe(true);
  });

  it('lolMiner is not an ASIC: the same slip is a low-difficulty share', async () => {
    const r = rig('lolminer');
    await r.start();
    const found = r.miner.search(100_000).share;
    if (!found) throw new Error('no share');
    r.source.nextJob();
    const reply = await r.submit('2', found.params);
    expect(reply.error?.[0]).toBe(23);
    expect(r.credited()).toBe(0);
  });

  it('ASIC difficulties stay powers of two through vardiff and requests', async () => {
    for (const kind of ['iceriver', 'bitmain'] as const) {
      const r = rig(kind, { start: 2 ** -27, max: 2 ** -22 });
      await r.start();
      for (let i = 0; i < 24; i++) {
        expect((await r.mine()).reply.result).toBe(true);
        r.clock.now += 10;
        if (i % 8 === 7) r.source.nextJob();
      }
      await r.call('mining.suggest_difficulty', [3e-7]);
      r.source.nextJob();
      const difficulties = r.lines
        .filter((l) => l.includes('mining.set_difficulty'))
        .map((l) => JSON.parse(l).params[0] as number);
      expect(difficulties.length).toBeGreaterThan(2);
      expect(difficulties.every(isPowerOfTwo)).toBe(true);
      expect(difficulties.at(-1)).toBe(2 ** -22);
    }
  });

  it('a share that meets the network target is a block: the template with the nonce, its hash', async () => {
    // 0x207fffff: about every other hash is a block
    const r = rig('goldshell', { bits: 0x207fffff });
    await r.start();
    const { reply, params } = await r.mine();
    expect(reply.result).toBe(true);
    expect(r.blocks).toHaveLength(1);
    const candidate = r.blocks[0] as BlockCandidate;
    const nonce = BigInt(`0x${params[0]}`);
    const job = r.source.current();
    expect(candidate.block.hash).toBe(job.blockHash(nonce));
    expect(candidate).toMatchObject({ account: 'alice', worker: 'rig1', difficulty: EASY });
    expect(await candidate.block.submit()).toEqual({ accepted: true, hash: job.blockHash(nonce) });
    expect(r.source.submitted[0]?.block.header).toMatchObject({ nonce });
  });

  it('a session that has not subscribed cannot submit; a closed one frees its extranonce', async () => {
    const allocator = new ExtranonceAllocator(7, 2);
    const clock = { now: 0 };
    const source = new KaspaFixtureSource({ now: () => clock.now });
    const jobs = new JobManager(source, { log: SILENT_LOG });
    const dialect = new KaspaDialect(jobs, allocator);
    const connection = dialect.connect({
      port: {
        algorithm: 'kheavyhash',
        kind: 'standard',
        port: 1,
        minDifficulty: 1,
        maxDifficulty: 64,
        startDifficulty: 1,
      },
      remoteAddress: '127.0.0.1',
      close() {},
    });
    expect(connection.subscribed).toBe(false);
    expect(connection.shapeDifficulty(100)).toBe(64);
    expect(connection.shapeDifficulty(0.1)).toBe(1);
    connection.subscribe(['IceRiverMiner-v1.1']);
    expect(allocator.size).toBe(1);
    connection.release();
    expect(allocator.size).toBe(0);
    expect(() => new KaspaDialect(jobs, new ExtranonceAllocator(0))).toThrow(/2-byte/);
  });
});
