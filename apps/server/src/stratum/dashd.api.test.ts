/**
 * Issue 17's Dash acceptance, end to end against the dashd stand-in (Dash Core cannot be installed
 * here; @lodestone/chain/testing startDashd speaks its JSON-RPC, serves Dash-shaped templates on top of
 * the real testnet block 917286 and checks submitted blocks with its own X11, merkle and payee checks).
 * The pool is configured with a DASH coin pointed at it (the config path picks the Dash template
 * dialect by ticker), our stratum client mines through the X11 port at the network difficulty, the
 * block candidate reaches the stand-in, which accepts it and advances, and the jobs role records the
 * found block in the database.
 */

import type { JobSource, TemplateJob } from '@lodestone/chain';
import { closeFakeDaemons, type Dashd, startDashd } from '@lodestone/chain/testing';
import type { Database } from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import { POW } from '@lodestone/pow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../bus/inProcess.js';
import { parseConfig } from '../config/config.js';
import { startShareConsumers } from '../jobs/accounting.js';
import { recordingLog } from '../jobs/testing.js';
import { createStratumWork } from '../network.js';
import { findShare } from './client/miner.js';
import type { StratumClient } from './client/stratumClient.js';
import { SILENT_LOG } from './log.js';
import type { StratumServer } from './startStratum.js';
import { startBlockMining } from './testing/harness.js';

const pow = POW.x11;
const LOGIN = 'acct.rig1';
/** How long a test waits on the sockets (node stand-in, pool, miner, bus), and how often it looks. */
const overTheWire = { timeout: 20_000, interval: 20 };
// A testnet P2PKH address (the payee of the real template 917411), as the pool's address.
const POOL_ADDRESS = 'yeRZBWYfeNE4yVUHV4ZLs83Ppn9aMRH57A';
const POOL_SCRIPT = '76a914c69a0bda7daaae481be8def95e5f347a1d00a4b488ac';

describe('a Dash block found through the pool, accepted by the dashd stand-in and recorded', () => {
  let dashd: Dashd;
  let source: JobSource;
  let server: StratumServer;
  let bus: InProcessBus;
  let database: Database;
  let client: StratumClient;
  let stopConsumers: () => Promise<void>;

  beforeAll(async () => {
    dashd = await startDashd({ credentials: 'dashrpc:secret' });
    const config = parseConfig(
      {},
      {
        coins: [
          {
            ticker: 'DASH',
            algorithm: 'x11',
            daemons: [dashd.url('dashrpc:secret@')],
            pool_address: POOL_ADDRESS,
            poll_interval_ms: 100,
          },
        ],
        stratum: { listeners: [{ algorithm: 'x11', port: 0, host: '127.0.0.1' }] },
      },
    );
    const sources = createStratumWork(config, SILENT_LOG).map((w) => w.source);
    expect(sources).toHaveLength(1);
    source = sources[0] as JobSource;
    await source.start();

    database = await createTestDatabase();
    bus = new InProcessBus();
    stopConsumers = await startShareConsumers({ bus, db: database.db, log: recordingLog() });
    ({ server, client } = await startBlockMining({
      node: 'dash-test',
      algorithm: 'x11',
      source,
      bus,
      login: LOGIN,
      agent: 'lodestone-dash-test/1.0',
    }));
  });

  afterAll(async () => {
    client?.destroy();
    await server?.stop();
    await source?.stop();
    await stopConsumers?.();
    await bus?.close();
    await database?.close();
    await closeFakeDaemons();
  });

  it('the stand-in accepts the block mined through the X11 port; the block is recorded', async () => {
    const job = source.current() as TemplateJob;
    expect(job.template.coinbase?.extraPayload).toBeDefined();
    const expectation = dashd.expectation();
    const payees = expectation.masternode.reduce((sum, p) => sum + BigInt(p.amount), 0n);
    expect(job.coinbaseValue).toBe(expectation.blockReward - payees);
    const notify = await client.nextJob((n) => n.coinbase2 === job.coinbase2);

    const difficulty = client.difficulty;
    if (difficulty === undefined) throw new Error('no mining.set_difficulty');
    const work = { job: notify, extranonce1: client.extranonce1, extranonce2Size: client.extranonce2Size, difficulty };
    let answer: unknown;
    for (let attempt = 0; attempt < 100 && answer === undefined; attempt++) {
      const share = findShare(work, pow, { maxHashes: 10_000 });
      if (share && share.hashValue <= job.networkTarget) {
        const reply = await client.submit({ worker: LOGIN, ...share });
        expect(reply.error).toBeNull();
        answer = reply.result;
      }
    }
    expect(answer).toBe(true);

    await vi.waitFor(() => expect(dashd.submissions, 'the block at the stand-in').not.toHaveLength(0), overTheWire);
    expect(dashd.submissions).toEqual([null]);
    expect(dashd.tip().height).toBe(job.height);

    // The stand-in kept the block; its coinbase pays the pool and the masternodes as the template asked.
    const kept = dashd.blocks.at(-1);
    expect(kept?.hex).toBeDefined();
    const hex = kept?.hex ?? '';
    expect(hex).toContain(POOL_SCRIPT);
    expect(hex).toContain(expectation.coinbasePayload);

    // The jobs role records the found block from the bus.
    const hash = dashd.tip().hash;
    const row = await vi.waitFor(async () => {
      const stored = await database.db.selectFrom('blocks').selectAll().where('hash', '=', hash).executeTakeFirst();
      expect(stored, 'the block row').toBeDefined();
      return stored;
    }, overTheWire);
    expect(row).toMatchObject({
      node: 'dash-test',
      algorithm: 'x11',
      coin: 'DASH',
      height: BigInt(job.height),
      status: 'pending',
      reward: job.coinbaseValue.toString(),
      account: 'acct',
      worker: 'rig1',
      submit_error: null,
    });

    // The pool moves on to the stand-in's new tip.
    const next = await vi.waitFor(() => {
      const current = source.current();
      expect(current?.height, 'a job on the new tip').toBe(job.height + 1);
      return current;
    }, overTheWire);
    expect(next?.cleanJobs).toBe(true);
  });
});
