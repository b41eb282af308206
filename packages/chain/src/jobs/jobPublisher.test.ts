import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { mergedWork } from '../auxpow/merged.js';
import { addressToScript } from '../bitcoin/address.js';
import { NETWORKS } from '../bitcoin/networks.js';
import type { BitcoinJob } from '../job.js';
import type { ChainLogger } from '../logger.js';
import { parseBlockTemplate } from '../rpc/template.js';
import { JobPublisher } from './jobPublisher.js';
import { createTemplateJob, DEFAULT_EXTRANONCE_SIZE } from './templateJob.js';

const payoutScript = addressToScript('rltc1q6tfup3z3n4vwakeajd4v7dl7y3e2jeuu053d2n', NETWORKS['litecoin-regtest']);

/** A real getblocktemplate reply of litecoind 0.21.2 -regtest. */
const template = parseBlockTemplate(
  JSON.parse(readFileSync(new URL('../testing/fixtures/litecoind-regtest-gbt-432.json', import.meta.url), 'utf8')),
);

function fakeLogger() {
  return {
    info: vi.fn<ChainLogger['info']>(),
    warn: vi.fn<ChainLogger['warn']>(),
    error: vi.fn<ChainLogger['error']>(),
  };
}

describe('JobPublisher', () => {
  it('numbers jobs 1, 2, ... in hex and keeps the newest as current', () => {
    const publisher = new JobPublisher({ coin: 'LTC', algorithm: 'scrypt' });
    expect(publisher.current()).toBeUndefined();
    const ids: string[] = [];
    for (let i = 0; i < 17; i += 1) {
      ids.push(publisher.publish(template, { payoutScript, clean: i === 0, createdAt: 1000 + i }).id);
    }
    expect(ids.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(ids.slice(8, 11)).toEqual(['9', 'a', 'b']);
    expect(ids[16]).toBe('11');
    expect(publisher.current()).toMatchObject({ id: '11', cleanJobs: false, createdAt: 1016 });
  });

  it('builds the job createTemplateJob builds from the same options', () => {
    const publisher = new JobPublisher({ coin: 'LTC', algorithm: 'scrypt', extranonceSize: 6, poolTag: '/lodestone/' });
    const job = publisher.publish(template, { payoutScript, clean: true, createdAt: 1234 });
    const expected = createTemplateJob(template, {
      id: '1',
      coin: 'LTC',
      algorithm: 'scrypt',
      payoutScript,
      extranonceSize: 6,
      poolTag: '/lodestone/',
      cleanJobs: true,
      createdAt: 1234,
    });
    expect(job).toMatchObject({
      id: '1',
      coin: 'LTC',
      algorithm: 'scrypt',
      extranonceSize: 6,
      cleanJobs: true,
      createdAt: 1234,
      coinbase1: expected.coinbase1,
      coinbase2: expected.coinbase2,
    });
    expect(job.coinbase2).toContain(Buffer.from('/lodestone/').toString('hex'));
  });

  it('uses the default extranonce size and no pool tag unless given', () => {
    const publisher = new JobPublisher({ coin: 'LTC', algorithm: 'scrypt' });
    const job = publisher.publish(template, { payoutScript, clean: true, createdAt: 1 });
    expect(job.extranonceSize).toBe(DEFAULT_EXTRANONCE_SIZE);
    expect(job.coinbase2).not.toContain(Buffer.from('/lodestone/').toString('hex'));
  });

  it('calls every listener with the new job, and stops calling one that unsubscribed', () => {
    const publisher = new JobPublisher({ coin: 'LTC', algorithm: 'scrypt' });
    const first: BitcoinJob[] = [];
    const second: BitcoinJob[] = [];
    const unsubscribe = publisher.onJob((job) => first.push(job));
    publisher.onJob((job) => second.push(job));
    const a = publisher.publish(template, { payoutScript, clean: true, createdAt: 1 });
    unsubscribe();
    const b = publisher.publish(template, { payoutScript, clean: false, createdAt: 2 });
    expect(first).toEqual([a]);
    expect(second).toEqual([a, b]);
  });

  it('logs a listener that throws and still calls the others', () => {
    const logger = fakeLogger();
    const publisher = new JobPublisher({ coin: 'LTC', algorithm: 'scrypt', logger });
    const failure = new Error('listener broke');
    const heard: string[] = [];
    publisher.onJob(() => {
      throw failure;
    });
    publisher.onJob((job) => heard.push(job.id));
    expect(() => publisher.publish(template, { payoutScript, clean: true, createdAt: 1 })).not.toThrow();
    expect(heard).toEqual(['1']);
    expect(logger.error).toHaveBeenCalledExactlyOnceWith({ err: failure, coin: 'LTC' }, 'job listener failed');
  });

  it('runs beforeNotify with the job, once it is current, before any listener', () => {
    const publisher = new JobPublisher({ coin: 'LTC', algorithm: 'scrypt' });
    const order: string[] = [];
    publisher.onJob((job) => order.push(`listener ${job.id}`));
    const job = publisher.publish(template, {
      payoutScript,
      clean: true,
      createdAt: 1,
      beforeNotify: (published) => {
        expect(publisher.current()).toBe(published);
        order.push(`before ${published.id}`);
      },
    });
    expect(order).toEqual(['before 1', 'listener 1']);
    expect(publisher.current()).toBe(job);
  });

  it('mines without the aux chains when their commitment does not fit the coinbase, and says so', () => {
    const logger = fakeLogger();
    const publisher = new JobPublisher({ coin: 'LTC', algorithm: 'scrypt', poolTag: '/a twenty-byte tag!/', logger });
    const merged = mergedWork([
      {
        coin: 'DOGE',
        chainId: 98,
        hash: 'd0'.repeat(32),
        previousBlockHash: 'd1'.repeat(32),
        height: 1,
        coinbaseValue: 1n,
        bits: '207fffff',
        target: 1n << 254n,
      },
    ]);
    // 30 bytes of coinbase flags: with the 45-byte commitment the script would pass 100 bytes.
    const crowded = { ...template, coinbaseAux: '1d'.padEnd(60, 'ab') };
    const job = publisher.publish(crowded, { payoutScript, clean: true, createdAt: 1, merged });
    expect(job.merged).toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ merged: ['DOGE'] }),
      'the merged-mining commitment does not fit the coinbase: mining without the aux chains',
    );
    // With room for it, the same template carries the commitment.
    expect(publisher.publish(template, { payoutScript, clean: true, createdAt: 2, merged }).merged).toBe(merged);
  });
});
