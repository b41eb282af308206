import { scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { p2pkhAddress } from '../bitcoin/address.js';
import { bytesToBigIntLE } from '../bitcoin/bytes.js';
import { NETWORKS } from '../bitcoin/networks.js';
import type { BitcoinJob } from '../job.js';
import { DaemonJobSource } from '../jobs/daemonJobSource.js';
import { type AuxDaemon, startAuxDaemon } from '../testing/dogecoind.js';
import { type LitecoinRegtest, startLitecoinRegtest } from '../testing/regtest.js';
import { AuxChainSource } from './auxChain.js';
import { MERGED_MINING_MAGIC } from './auxpow.js';
import { MergedMining, shareAuxPow } from './merged.js';

/**
 * Merged mining end to end at the chain level: litecoind -regtest is the real parent, two stand-in aux
 * daemons (Dogecoin's chain id 98 and Bellscoin's 16, each checking proofs with its own code) give aux
 * blocks. One solved share is a Litecoin block whose coinbase carries the commitment — litecoind takes
 * it — and, with the proofs the pool builds, a block of each aux chain.
 */

const TIMEOUT = 120_000;
const onTheDaemon = { timeout: 20_000, interval: 50 };
const DOGE_REGTEST = { name: 'dogecoin-regtest', pubKeyHash: [111], scriptHash: [196] };

/** A nonce whose scrypt hash meets the job's network target (litecoind regtest: about every other one). */
function solve(job: BitcoinJob, extranonce1: Buffer, extranonce2: Buffer) {
  for (let nonce = 0; nonce < 10_000; nonce++) {
    const header = job.header(extranonce1, extranonce2, job.curtime, nonce, job.version);
    const value = bytesToBigIntLE(scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 }));
    if (value <= job.networkTarget) return { nonce, header, value };
  }
  throw new Error('no share below the regtest target in 10 000 nonces');
}

describe('merged mining on litecoind -regtest with two aux daemons', () => {
  let net: LitecoinRegtest;
  let doge: AuxDaemon;
  let bells: AuxDaemon;
  let source: DaemonJobSource;
  const jobs: BitcoinJob[] = [];
  const dogeAddress = p2pkhAddress(Buffer.alloc(20, 0xd0), DOGE_REGTEST);
  const bellsAddress = p2pkhAddress(Buffer.alloc(20, 0xbe), DOGE_REGTEST);

  beforeAll(async () => {
    [net, doge, bells] = await Promise.all([
      startLitecoinRegtest(),
      startAuxDaemon({ coin: 'DOGE', chainId: 98, credentials: 'doge:pw' }),
      startAuxDaemon({ coin: 'BELLS', chainId: 16, namecoinApi: true }),
    ]);
    const merged = new MergedMining([
      new AuxChainSource({
        coin: 'DOGE',
        chainId: 98,
        daemons: [doge.url('doge:pw')],
        payoutAddress: dogeAddress,
        pollIntervalMs: 50,
      }),
      new AuxChainSource({
        coin: 'BELLS',
        chainId: 16,
        daemons: [bells.url()],
        payoutAddress: bellsAddress,
        pollIntervalMs: 50,
      }),
    ]);
    source = new DaemonJobSource({
      coin: 'LTC',
      algorithm: 'scrypt',
      daemons: [net.miner.rpcUrl],
      poolAddress: net.poolAddress,
      network: NETWORKS['litecoin-regtest'],
      rules: ['mweb', 'segwit'],
      pollIntervalMs: 100,
      merged,
    });
    source.onJob((job) => jobs.push(job));
    await source.start();
  }, TIMEOUT);

  afterAll(async () => {
    await source?.stop();
    await Promise.all([net?.stop(), doge?.close(), bells?.close()]);
  });

  it(
    'mines one share into a Litecoin block with the commitment and a block of each aux chain',
    async () => {
      const job = source.current();
      if (!job?.merged) throw new Error('no merged job');
      expect(job.merged.chains.map((c) => [c.coin, c.chainId, c.height])).toEqual([
        ['DOGE', 98, doge.height() + 1],
        ['BELLS', 16, bells.height() + 1],
      ]);
      expect(job.coinbase1).toContain(`2c${MERGED_MINING_MAGIC.toString('hex')}`);

      const en1 = Buffer.from('0a0b0c0d', 'hex');
      const en2 = Buffer.from('00000001', 'hex');
      const { nonce, header, value } = solve(job, en1, en2);
      const parent = await source.submitBlock(job, job.block(en1, en2, job.curtime, nonce, job.version));
      expect(parent).toMatchObject({ accepted: true });
      // litecoind holds the block, and its coinbase carries the merged-mining commitment.
      const block = (await net.miner.client.call('getblock', [parent.hash, 2])) as {
        tx: { vin: { coinbase: string }[] }[];
      };
      expect(block.tx[0]?.vin[0]?.coinbase).toContain(job.merged.commitment.toString('hex'));

      for (const chain of job.merged.chains) {
        expect(value <= chain.target).toBe(true);
        const result = await source.submitAuxBlock(chain, shareAuxPow(job, chain, en1, en2, header));
        expect(result).toEqual({ accepted: true, hash: chain.hash });
      }
      expect(doge.accepted().map((b) => [b.hash, b.payoutAddress])).toEqual([
        [job.merged.chains[0]?.hash, dogeAddress],
      ]);
      expect(bells.accepted().map((b) => [b.hash, b.payoutAddress])).toEqual([
        [job.merged.chains[1]?.hash, bellsAddress],
      ]);
    },
    TIMEOUT,
  );

  it(
    'follows an aux chain that moves with a new job that is not clean, and pauses a chain whose daemon is down',
    async () => {
      await vi.waitFor(() => expect(source.current()?.merged?.chains[0]?.height).toBe(doge.height() + 1), onTheDaemon);
      const before = source.current();
      doge.mineElsewhere();
      await vi.waitFor(() => expect(source.current()?.merged?.chains[0]?.height).toBe(doge.height() + 1), onTheDaemon);
      const after = source.current();
      expect(after?.cleanJobs).toBe(false);
      expect(after?.prevHashNotify).toBe(before?.prevHashNotify);
      expect(after?.coinbase1).not.toBe(before?.coinbase1);

      doge.misbehave('down');
      await vi.waitFor(
        () => expect(source.current()?.merged?.chains.map((c) => c.coin)).toEqual(['BELLS']),
        onTheDaemon,
      );
      // The parent mines on: a Litecoin block found now is accepted.
      const job = source.current();
      if (!job) throw new Error('no job');
      const en1 = Buffer.from('0a0b0c0e', 'hex');
      const en2 = Buffer.from('00000002', 'hex');
      const { nonce } = solve(job, en1, en2);
      expect(await source.submitBlock(job, job.block(en1, en2, job.curtime, nonce, job.version))).toMatchObject({
        accepted: true,
      });
      doge.misbehave('none');
      await vi.waitFor(
        () => expect(source.current()?.merged?.chains.map((c) => c.coin)).toEqual(['DOGE', 'BELLS']),
        onTheDaemon,
      );
    },
    TIMEOUT,
  );
});
