import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressToScript } from '../bitcoin/address.js';
import { NETWORKS } from '../bitcoin/networks.js';
import type { BitcoinJob } from '../job.js';
import { closeFakeDaemons, fakeDaemon, ok, reply } from '../testing/fakeDaemon.js';
import { freePorts } from '../testing/regtest.js';
import { DaemonJobSource, type DaemonJobSourceOptions, defaultRules, JobSourceConfigError } from './daemonJobSource.js';
import type { TemplateJob } from './templateJob.js';

const ADDRESS = 'rltc1q6tfup3z3n4vwakeajd4v7dl7y3e2jeuu053d2n';
const SCRIPT = addressToScript(ADDRESS, NETWORKS['litecoin-regtest']).toString('hex');
const hash = (n: number) => n.toString(16).padStart(64, '0');
const TX = {
  data: '0100000001aa00000000000000000000000000000000000000000000000000000000000000000000000000ffffffff0100000000000000000000000000',
  txid: hash(0xabc),
};

interface DaemonState {
  best: string;
  height: number;
  transactions: (typeof TX)[];
  curtime: number;
  submit: unknown;
  validate: { isvalid: boolean; scriptPubKey?: string };
  rules: unknown[];
  parked: { res: ServerResponse; id: unknown }[];
  /** submitblock calls still to answer HTTP 503 (the daemon restarting, its RPC threads taken). */
  submitDown: number;
  submitCalls: number;
  /** getbestblockhash calls so far: how many polls the source has made. */
  bestCalls: number;
}

function rawTemplate(state: DaemonState) {
  return {
    version: 0x20000000,
    previousblockhash: state.best,
    transactions: state.transactions,
    coinbasevalue: 5_000_000_000,
    bits: '207fffff',
    curtime: state.curtime,
    mintime: state.curtime - 60,
    height: state.height,
    rules: ['csv', '!segwit', 'taproot'],
    longpollid: `${state.best}${state.transactions.length}`,
    default_witness_commitment: '6a24aa21a9ede2f61c3f71d1defd3fa999dfa36953755c690689799962b48bebd836974e8cf9',
  };
}

async function startDaemon(initial: Partial<DaemonState> = {}) {
  const state: DaemonState = {
    best: hash(1),
    height: 2,
    transactions: [],
    curtime: 1_800_000_000,
    submit: null,
    validate: { isvalid: true, scriptPubKey: SCRIPT },
    rules: [],
    parked: [],
    submitDown: 0,
    submitCalls: 0,
    bestCalls: 0,
    ...initial,
  };
  const daemon = await fakeDaemon((request, res) => {
    const template = request.params[0] as { rules?: unknown[]; longpollid?: string } | undefined;
    switch (request.method) {
      case 'validateaddress':
        return ok(res, request.id, state.validate);
      case 'getbestblockhash':
        state.bestCalls++;
        return ok(res, request.id, state.best);
      case 'getblocktemplate':
        state.rules = template?.rules ?? [];
        if (template?.longpollid !== undefined) {
          state.parked.push({ res, id: request.id });
          return;
        }
        return ok(res, request.id, rawTemplate(state));
      case 'submitblock':
        state.submitCalls++;
        if (state.submitDown > 0) {
          state.submitDown--;
          return reply(res, 503, 'Service Unavailable');
        }
        return ok(res, request.id, state.submit);
      default:
        return reply(res, 404, { result: null, error: { code: -32601, message: 'Method not found' }, id: request.id });
    }
  });
  return { state, daemon };
}

/** How long a test waits for the source and the fake daemon, and how often it looks. */
const patiently = { timeout: 3000, interval: 10 };

/**
 * Waits until the source has polled the daemon `polls` more times: each poll is answered and acted on
 * before the next one, so whatever the source would do about the daemon's state it has done by then.
 */
async function afterPolls(state: DaemonState, polls: number): Promise<void> {
  const from = state.bestCalls;
  await vi.waitFor(() => expect(state.bestCalls, `${polls} polls`).toBeGreaterThanOrEqual(from + polls), patiently);
}

const sources: DaemonJobSource[] = [];
function makeSource(options: Partial<DaemonJobSourceOptions> & Pick<DaemonJobSourceOptions, 'daemons'>) {
  const source = new DaemonJobSource({
    coin: 'LTC',
    algorithm: 'scrypt',
    poolAddress: ADDRESS,
    network: NETWORKS['litecoin-regtest'],
    pollIntervalMs: 20,
    longPoll: false,
    ...options,
  });
  sources.push(source);
  const jobs: TemplateJob[] = [];
  source.onJob((job: BitcoinJob) => jobs.push(job as TemplateJob));
  return { source, jobs };
}

afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.stop()));
  await closeFakeDaemons();
});

describe('DaemonJobSource', () => {
  it('asks Litecoin daemons for mweb and segwit templates', async () => {
    expect(defaultRules('LTC')).toEqual(['mweb', 'segwit']);
    expect(defaultRules('BTC')).toEqual(['segwit']);
    const { state, daemon } = await startDaemon();
    const { source, jobs } = makeSource({ daemons: [daemon.url()] });
    await source.start();
    expect(state.rules).toEqual(['mweb', 'segwit']);
    expect(jobs).toHaveLength(1);
    expect(source.current()).toBe(jobs[0]);
    expect(jobs[0]).toMatchObject({ height: 2, cleanJobs: true, previousBlockHash: hash(1) });
  });

  it('makes a clean job at once for a new previous block, and refreshes the same block periodically', async () => {
    const clock = { now: 1_000_000 };
    const { state, daemon } = await startDaemon();
    const { source, jobs } = makeSource({ daemons: [daemon.url()], now: () => clock.now, refreshIntervalMs: 30_000 });
    await source.start();

    await afterPolls(state, 5);
    expect(jobs).toHaveLength(1); // nothing changed: no new job

    state.best = hash(2);
    state.height = 3;
    await vi.waitFor(() => expect(jobs, 'the new block job').toHaveLength(2), patiently);
    expect(jobs[1]).toMatchObject({ height: 3, cleanJobs: true, previousBlockHash: hash(2) });

    state.transactions = [TX];
    await afterPolls(state, 5);
    expect(jobs).toHaveLength(2); // new transactions wait for the refresh interval
    clock.now += 30_000;
    await vi.waitFor(() => expect(jobs, 'the refreshed job').toHaveLength(3), patiently);
    expect(jobs[2]).toMatchObject({ height: 3, cleanJobs: false, previousBlockHash: hash(2) });
    expect(jobs[2]?.merkleBranch).toEqual([TX.txid.match(/../g)?.reverse().join('')]);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(3);
  });

  it('never goes back to an older block height', async () => {
    const { state, daemon } = await startDaemon({ height: 10, best: hash(10) });
    const { source, jobs } = makeSource({ daemons: [daemon.url()] });
    await source.start();
    state.best = hash(9);
    state.height = 9;
    await afterPolls(state, 5);
    expect(jobs.map((j) => j.height)).toEqual([10]);
  });

  it('takes new templates from a long poll', async () => {
    const { state, daemon } = await startDaemon();
    const { source, jobs } = makeSource({ daemons: [daemon.url()], longPoll: true, pollIntervalMs: 60_000 });
    await source.start();
    await vi.waitFor(() => expect(state.parked, 'the long poll').toHaveLength(1), patiently);
    state.best = hash(3);
    state.height = 3;
    const parked = state.parked.shift();
    if (parked) ok(parked.res, parked.id, rawTemplate(state));
    await vi.waitFor(() => expect(jobs, 'the long-poll job').toHaveLength(2), patiently);
    expect(jobs[1]).toMatchObject({ height: 3, cleanJobs: true });
    // stop() ends the next (hanging) long poll promptly.
    await vi.waitFor(() => expect(state.parked, 'the next long poll').toHaveLength(1), patiently);
    const started = Date.now();
    await source.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('issues no second long poll while the daemon still holds one it gave up on, until the chain moves', async () => {
    // litecoind keeps an RPC thread on a long poll whose client left; one more at every timeout took
    // all four of its threads on a quiet chain, and submitblock timed out behind them.
    const { state, daemon } = await startDaemon();
    const { source, jobs } = makeSource({
      daemons: [daemon.url()],
      longPoll: true,
      longPollTimeoutMs: 50,
      pollIntervalMs: 20,
    });
    await source.start();
    await vi.waitFor(() => expect(state.parked, 'the long poll').toHaveLength(1), patiently);
    // Ten timeouts' worth of polls (50 ms each) that see the same block.
    const polled = state.bestCalls;
    await vi.waitFor(
      () => expect(state.bestCalls, 'ten timeouts of polling').toBeGreaterThanOrEqual(polled + 25),
      patiently,
    );
    expect(state.parked).toHaveLength(1);

    state.best = hash(3);
    state.height = 3;
    await vi.waitFor(() => expect(jobs, 'the job of the new block (from the poll)').toHaveLength(2), patiently);
    // The daemon answers the old long poll now that the chain moved; a new one follows, and only one.
    const parked = state.parked.shift();
    if (parked) ok(parked.res, parked.id, rawTemplate(state));
    await vi.waitFor(() => expect(state.parked, 'the next long poll').toHaveLength(1), patiently);
    const after = state.bestCalls;
    await vi.waitFor(
      () => expect(state.bestCalls, 'polls after the next long poll').toBeGreaterThanOrEqual(after + 10),
      patiently,
    );
    expect(state.parked).toHaveLength(1);

    // A connection cut (a restart, a proxy, the network) loses the answer; the daemon keeps the thread.
    state.parked[0]?.res.socket?.destroy();
    const cut = state.bestCalls;
    await vi.waitFor(() => expect(state.bestCalls, 'polls after the cut').toBeGreaterThanOrEqual(cut + 15), patiently);
    expect(state.parked).toHaveLength(1);
    state.best = hash(4);
    state.height = 4;
    await vi.waitFor(() => expect(jobs, 'the job of the next block').toHaveLength(3), patiently);
    await vi.waitFor(() => expect(state.parked, 'a long poll once the chain moved').toHaveLength(2), patiently);
  });

  it('refuses to start with an address the daemon rejects or reads differently', async () => {
    const invalid = await startDaemon({ validate: { isvalid: false } });
    await expect(makeSource({ daemons: [invalid.daemon.url()] }).source.start()).rejects.toThrow(JobSourceConfigError);
    const other = await startDaemon({ validate: { isvalid: true, scriptPubKey: `0014${'11'.repeat(20)}` } });
    await expect(makeSource({ daemons: [other.daemon.url()] }).source.start()).rejects.toThrow(/differs/);
  });

  it('submits to every daemon: accepted when one accepts, refused with every reason otherwise', async () => {
    const a = await startDaemon({ submit: null });
    const b = await startDaemon({ submit: 'inconclusive' });
    const [deadPort] = await freePorts(1);
    const { source } = makeSource({ daemons: [a.daemon.url(), b.daemon.url(), `http://127.0.0.1:${deadPort}/`] });
    await source.start();
    const job = source.current() as TemplateJob;
    const en1 = Buffer.alloc(4);
    const en2 = Buffer.alloc(4);
    const block = job.block(en1, en2, job.curtime, 0, job.version);
    const hashHex = job.blockHash(job.header(en1, en2, job.curtime, 0, job.version));

    expect(await source.submitBlock(job, block)).toEqual({ accepted: true, hash: hashHex });
    expect(a.daemon.hits()).toBeGreaterThan(0);

    a.state.submit = 'high-hash';
    b.state.submit = 'high-hash';
    const refused = await source.submitBlock(job, block);
    expect(refused).toMatchObject({ accepted: false, hash: hashHex });
    const reasons = refused.accepted ? [] : refused.reason.split('; ');
    expect(reasons.filter((r) => r.endsWith(': high-hash'))).toHaveLength(2);
    expect(reasons.filter((r) => r.includes('ECONNREFUSED'))).toHaveLength(1);

    a.state.submit = 'duplicate';
    expect(await source.submitBlock(job, block)).toMatchObject({ accepted: true });
    expect(await source.submitBlock(job, 'zz')).toMatchObject({ accepted: false, reason: /not a block/ });
  });

  it('submits a found block again while no daemon can take it, until one does or the chain moves past its parent', async () => {
    const { state, daemon } = await startDaemon({ submit: null, submitDown: 3 });
    const { source } = makeSource({ daemons: [daemon.url()], submitRetryMs: 5 });
    await source.start();
    const job = source.current() as TemplateJob;
    const en = Buffer.alloc(4);
    const block = job.block(en, en, job.curtime, 0, job.version);
    const hashHex = job.blockHash(job.header(en, en, job.curtime, 0, job.version));
    expect(await source.submitBlock(job, block)).toEqual({ accepted: true, hash: hashHex });
    expect(state.submitCalls).toBe(4);

    // Out of reach until another block took its parent's place: a stale block, said so.
    state.submitCalls = 0;
    state.submitDown = 1_000;
    const submitted = source.submitBlock(job, block);
    await vi.waitFor(() => expect(state.submitCalls, 'a second attempt').toBeGreaterThanOrEqual(2), patiently);
    state.best = hash(9);
    expect(await submitted).toMatchObject({ accepted: false, reason: /the chain moved past its parent/ });
  });
});
