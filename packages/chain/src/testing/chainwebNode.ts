/**
 * A stand-in chainweb-node for tests (chainweb-node cannot be installed on these machines): a loopback
 * HTTP server with the node's paths, binary bodies, plain-text errors and server-sent events, over a
 * twenty-chain web of real-layout headers.
 *
 * - State: 20 chains (mainnet01's twenty-chain graph). Chain 5 starts on a real mainnet header
 *   (height 2 111 409, from kadena-io/chainweb-mining-client test/data/test-headers.bin); the other chains
 *   start at the same height on headers built like it. Block hashes are chainweb's Merkle roots
 *   (kadenaBlockHash, checked against 360 real headers).
 * - GET /info; GET …/mining/work[?chain=] (403 "Unauthorized Miner: …" for a miner not configured,
 *   503 "Too many work requests" past `workLimit` outstanding payloads; a chain its neighbours block is
 *   not mined — another is picked, as the node does); POST …/mining/solved (the 286 bytes are read here
 *   on their own, field by field: 400 "Decoding error", 404 "No associated Payload" for unknown or used
 *   work, 400 "Invalid solved work: Invalid POW hash"; otherwise 204 — like the node, whose cut pipeline
 *   validates later, a header that differs from the work handed out in anything but nonce and creation
 *   time, is created before a parent or is in the future, or no longer extends its chain, is taken and
 *   then dropped, listed in `rejections`); GET …/mining/updates (text/event-stream "New Cut" /
 *   "Refreshed Block", closed after `updateStreamTimeoutMs`, 503 past `updateStreamLimit`); GET …/cut;
 *   GET …/chain/{c}/header/{hash}; POST …/chain/{c}/header/branch.
 * - The Pact service API and the mempool's member/lookup calls (chainwebPact.ts): per-chain coin
 *   balances, commands checked by pactVerifier.ts and run in the next block of their chain (a block of
 *   advanceCut or a solved one); orphan undoes the blocks it replaces and gives their commands back.
 * - Test controls: `refreshPayload` (Refreshed Block), `advanceCut` (other miners extend every chain),
 *   `orphan` (a competing branch replaces a block), `pact` (fund accounts, read balances), `close`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { blake2sWork } from '@lodestone/pow';
import type { KadenaMiner } from '../kadena/chainwebClient.js';
import { kadenaBlockHash, TWENTY_CHAIN_GRAPH } from '../kadena/header.js';
import { StandInPact } from './chainwebPact.js';

/** The miner the stand-in coordinates by default (chainweb-node's own test miner key, Miner/Pact.hs). */
export const STAND_IN_MINER: KadenaMiner = Object.freeze({
  account: 'k:f880a433d6e2a13a32b6169030f56245efdd8c1b8a5027e9ce98a88e886bef27',
  publicKeys: ['f880a433d6e2a13a32b6169030f56245efdd8c1b8a5027e9ce98a88e886bef27'],
  predicate: 'keys-all',
});

/** The first header of chainweb-mining-client's test-headers.bin (mainnet01, chain 5, height 2 111 409). */
export function realMainnetHeaders(): Buffer[] {
  const bytes = readFileSync(new URL('./fixtures/chainweb-mining-client-test-headers.bin', import.meta.url));
  const headers: Buffer[] = [];
  for (let at = 0; at + 318 <= bytes.length; at += 318) headers.push(bytes.subarray(at, at + 318));
  return headers;
}

export interface ChainwebNodeOptions {
  /** Miners in the coordination config; others get 403. Default: STAND_IN_MINER. */
  miners?: readonly KadenaMiner[];
  /** Target of the work handed out (an easy one, so a CPU finds blocks). Default 2^246 (~1 024 hashes). */
  target?: bigint;
  /**
   * The target of a block on chain `chainId` after `parent` (its height and creation time, epoch ms)
   * created at `timeMs`: the demo network retargets every block with it (ASERT per chain); tests keep
   * `target`. Not chainweb's epoch rule.
   */
  retarget?: (chainId: number, parent: { height: number; timeMs: number }, timeMs: number) => bigint;
  /** Outstanding work payloads before 503 "Too many work requests" (chainweb-node: 1200). */
  workLimit?: number;
  /** Open update streams before 503 (chainweb-node: 2000). */
  updateStreamLimit?: number;
  /** Update streams are closed after this (chainweb-node: 240 s ± 10 %). Default 60 000 ms. */
  updateStreamTimeoutMs?: number;
  /** Epoch ms clock. */
  now?: () => number;
}

export interface StandInBlock {
  chainId: number;
  height: number;
  /** base64url block hash. */
  hash: string;
  /** 318 bytes. */
  header: Buffer;
  /** The account of the miner whose work it was (undefined for blocks of other miners). */
  account: string | undefined;
}

export interface StandInRejection {
  chainId: number;
  height: number;
  hash: string;
  reason: string;
}

export interface ChainwebNodeStandIn {
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly version: 'mainnet01';
  readonly chains: readonly number[];
  /** Blocks solved through mining/solved and added to their chain, in order. */
  readonly solvedBlocks: readonly StandInBlock[];
  /** Solutions the node took (204) and its validation then dropped. */
  readonly rejections: readonly StandInRejection[];
  /** Work requests answered with work, per chain of the reply. */
  workServed(chainId?: number): number;
  /** Update events written, one per open stream of the chain. */
  updatesSent(): number;
  /** Number of open update streams. */
  openStreams(): number;
  head(chainId: number): StandInBlock;
  /** New transactions on a chain: a new payload, "Refreshed Block" on its stream; older work stays valid. */
  refreshPayload(chainId: number): void;
  /** Other miners extend every chain `rounds` times (one height per round); "New Cut" where work changes. */
  advanceCut(rounds?: number): void;
  /**
   * A competing block replaces the block at `height` on `chainId`, and the competing branch grows one block
   * longer than the branch it replaces: the old block stays known (GET header finds it) but is off the chain.
   */
  orphan(chainId: number, height: number): void;
  /** The Pact side: `fund` an account on a chain, read a `balance`, list `pending` request keys. */
  readonly pact: Pick<StandInPact, 'fund' | 'balance' | 'pending'>;
  close(): Promise<void>;
}

// The work header, field by field, in chainweb's encoding order (encodeBlockHeaderWithoutHash).
const FIELDS = [
  ['flags', 8],
  ['time', 8],
  ['parent', 32],
  ['adjacents', 110],
  ['target', 32],
  ['payload', 32],
  ['chain', 4],
  ['weight', 32],
  ['height', 8],
  ['version', 4],
  ['epoch', 8],
  ['nonce', 8],
] as const;
type FieldName = (typeof FIELDS)[number][0];
type Fields = Record<FieldName, Buffer>;
const WORK_BYTES = FIELDS.reduce((sum, [, size]) => sum + size, 0);

function splitWork(bytes: Buffer): Fields {
  const out = {} as Fields;
  let at = 0;
  for (const [name, size] of FIELDS) {
    out[name] = bytes.subarray(at, at + size);
    at += size;
  }
  return out;
}

function joinWork(fields: Fields): Buffer {
  return Buffer.concat(FIELDS.map(([name]) => fields[name]));
}

const le = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).reverse().toString('hex') || '0'}`);
const toLE = (value: bigint, size: number): Buffer =>
  Buffer.from(value.toString(16).padStart(size * 2, '0'), 'hex').reverse();
const u32 = (n: number): Buffer => toLE(BigInt(n), 4);
const MAX_TARGET = (1n << 256n) - 1n;

interface Stored {
  block: StandInBlock;
  fields: Fields;
  parent: string | undefined;
}

interface IssuedWork {
  chainId: number;
  parentHash: string;
  work: Buffer;
  account: string;
  issuedAt: number;
}

interface Stream {
  chainId: number;
  res: ServerResponse;
}

const sameMiner = (a: KadenaMiner, b: KadenaMiner) =>
  a.account === b.account &&
  (a.predicate ?? 'keys-all') === (b.predicate ?? 'keys-all') &&
  [...a.publicKeys].sort().join() === [...b.publicKeys].sort().join();

/** Starts a stand-in chainweb-node on a free loopback port. */
export async function startChainwebNode(options: ChainwebNodeOptions = {}): Promise<ChainwebNodeStandIn> {
  const now = options.now ?? Date.now;
  /** µs: chainweb's creation times are µs, and blocks made within one ms must still be in order. */
  const nowMicros = (): bigint =>
    options.now
      ? BigInt(options.now()) * 1000n
      : BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000));
  const miners = options.miners ?? [STAND_IN_MINER];
  const workTarget = options.target ?? 1n << 246n;
  const workLimit = options.workLimit ?? 1200;
  const streamLimit = options.updateStreamLimit ?? 2000;
  const streamTimeoutMs = options.updateStreamTimeoutMs ?? 60_000;
  const chains = Object.keys(TWENTY_CHAIN_GRAPH).map(Number);
  const adjacentOf = (c: number) => TWENTY_CHAIN_GRAPH[c] as readonly number[];

  const pact = new StandInPact({
    version: 'mainnet01',
    chains,
    minerAccount: (miners[0] ?? STAND_IN_MINER).account,
    minerKeys: (miners[0] ?? STAND_IN_MINER).publicKeys,
    now,
  });
  const known = new Map<string, Stored>();
  const mainChain = new Map<number, string[]>(); // chain → block hashes by height - base height
  const primed = new Map<number, Buffer>(); // chain → payload hash of the current payload
  const issued = new Map<string, IssuedWork>(); // payload hash (hex) → work
  const served = new Map<number, number>();
  let updatesSent = 0;
  const solvedBlocks: StandInBlock[] = [];
  const rejections: StandInRejection[] = [];
  const streams = new Set<Stream>();
  let rotation = 0;

  // The start: a real mainnet header on chain 5, headers built like it on the other chains.
  const real = realMainnetHeaders()[0] as Buffer;
  const realFields = splitWork(real.subarray(0, WORK_BYTES));
  const baseHeight = Number(le(realFields.height));
  const store = (fields: Fields, account: string | undefined, parent: string | undefined): StandInBlock => {
    const work = joinWork(fields);
    const hash = kadenaBlockHash(work).toString('base64url');
    const chainId = Number(le(fields.chain));
    const block: StandInBlock = {
      chainId,
      height: Number(le(fields.height)),
      hash,
      header: Buffer.concat([work, Buffer.from(hash, 'base64url')]),
      account,
    };
    known.set(hash, { block, fields, parent });
    return block;
  };
  for (const c of chains) {
    let block: StandInBlock;
    if (c === 5) block = store(realFields, undefined, undefined);
    else {
      const fields = { ...realFields, chain: u32(c), parent: randomBytes(32), payload: randomBytes(32) };
      fields.adjacents = adjacentsField(c, () => randomBytes(32));
      block = store(fields, undefined, undefined);
    }
    mainChain.set(c, [block.hash]);
  }

  function adjacentsField(c: number, hashAt: (a: number) => Buffer): Buffer {
    const parts: Buffer[] = [toLE(3n, 2)];
    for (const a of [...adjacentOf(c)].sort((x, y) => x - y)) parts.push(u32(a), hashAt(a));
    return Buffer.concat(parts);
  }

  const heightOf = (c: number) => baseHeight + (mainChain.get(c) as string[]).length - 1;
  const headOf = (c: number): Stored => known.get((mainChain.get(c) as string[]).at(-1) as string) as Stored;
  const atHeight = (c: number, h: number): Stored | undefined => {
    const hash = (mainChain.get(c) as string[])[h - baseHeight];
    return hash === undefined ? undefined : known.get(hash);
  };
  /** The adjacent parent on chain a for a block above height h (orphan's competing branch may outgrow a). */
  const adjacentAt = (a: number, h: number): Stored => atHeight(a, h) ?? headOf(a);
  /** A chain can be extended when every adjacent chain has its block at the chain's current height. */
  const mineable = (c: number) => adjacentOf(c).every((a) => heightOf(a) >= heightOf(c));

  /** The target of the next block on chain c, created at `micros`. */
  function targetOf(c: number, micros: bigint): bigint {
    if (!options.retarget) return workTarget;
    const head = headOf(c);
    const parent = { height: head.block.height, timeMs: Number(le(head.fields.time) / 1000n) };
    return options.retarget(c, parent, Number(micros / 1000n));
  }

  /** The header that extends chain c (nonce 0, creation time now), with the chain's primed payload. */
  function nextWork(c: number, payload: Buffer): Buffer {
    const parent = headOf(c);
    const h = heightOf(c);
    const adjacentParents = adjacentOf(c).map((a) => adjacentAt(a, h));
    const latest = [parent, ...adjacentParents].reduce((t, s) => (le(s.fields.time) > t ? le(s.fields.time) : t), 0n);
    const time = nowMicros() > latest ? nowMicros() : latest + 1n;
    const target = targetOf(c, time);
    return joinWork({
      flags: parent.fields.flags,
      time: toLE(time, 8),
      parent: Buffer.from(parent.block.hash, 'base64url'),
      adjacents: adjacentsField(c, (a) => Buffer.from(adjacentAt(a, h).block.hash, 'base64url')),
      target: toLE(target, 32),
      payload,
      chain: u32(c),
      weight: toLE(le(parent.fields.weight) + MAX_TARGET / target, 32),
      height: toLE(BigInt(h + 1), 8),
      version: parent.fields.version,
      epoch: parent.fields.epoch,
      nonce: toLE(0n, 8),
    });
  }

  function emit(c: number, event: 'New Cut' | 'Refreshed Block'): void {
    for (const stream of streams) {
      if (stream.chainId !== c) continue;
      stream.res.write(`event:${event}\n\n`);
      updatesSent++;
    }
  }

  /** Adds a block to the head of chain c; "New Cut" on c and on chains it unblocks. */
  function extend(fields: Fields, account: string | undefined): StandInBlock {
    const c = Number(le(fields.chain));
    const blockedBefore = new Set(chains.filter((x) => !mineable(x)));
    const parent = headOf(c);
    const block = store(fields, account, parent.block.hash);
    (mainChain.get(c) as string[]).push(block.hash);
    pact.onBlock({
      chainId: c,
      height: block.height,
      hash: block.hash,
      parentHash: parent.block.hash,
      timeMicros: le(fields.time),
      parentTimeMicros: le(parent.fields.time),
    });
    primed.delete(c);
    emit(c, 'New Cut');
    for (const x of blockedBefore) if (x !== c && mineable(x)) emit(x, 'New Cut');
    return block;
  }

  /** A block of another miner on chain c: real proof of work at the work target. */
  function externalBlock(c: number): Fields {
    const work = nextWork(c, randomBytes(32));
    const target = le(splitWork(work).target);
    for (let nonce = 0n; ; nonce++) {
      work.writeBigUInt64LE(nonce, WORK_BYTES - 8);
      if (le(blake2sWork(work)) <= target) return splitWork(Buffer.from(work));
    }
  }

  const apiPrefix = '/chainweb/0.0/mainnet01/';

  function reply(res: ServerResponse, status: number, body: string | Buffer, type = 'text/plain;charset=utf-8') {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  }

  function handleWork(res: ServerResponse, query: URLSearchParams, body: Buffer): void {
    let miner: KadenaMiner;
    try {
      const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const keys = json['public-keys'];
      if (typeof json.account !== 'string' || typeof json.predicate !== 'string' || !Array.isArray(keys)) {
        throw new Error('account, predicate and public-keys expected');
      }
      miner = { account: json.account, predicate: json.predicate, publicKeys: keys.map(String) };
    } catch (error) {
      reply(res, 400, `Error in $: ${(error as Error).message}`);
      return;
    }
    if (issued.size > workLimit) {
      reply(res, 503, 'Too many work requests');
      return;
    }
    if (!miners.some((m) => sameMiner(m, miner))) {
      reply(res, 403, `Unauthorized Miner: ${miner.account}`);
      return;
    }
    const asked = query.get('chain');
    let c = asked === null ? undefined : Number(asked);
    if (c !== undefined && !chains.includes(c)) {
      reply(res, 400, `Error parsing query parameter chain failed`);
      return;
    }
    if (c === undefined || !mineable(c)) {
      const open = chains.filter(mineable);
      c = open[rotation++ % open.length] as number;
    }
    let payload = primed.get(c);
    if (payload === undefined) {
      payload = randomBytes(32);
      primed.set(c, payload);
    }
    const work = nextWork(c, payload);
    const target = le(splitWork(work).target);
    issued.set(payload.toString('hex'), {
      chainId: c,
      parentHash: headOf(c).block.hash,
      work,
      account: miner.account,
      issuedAt: now(),
    });
    served.set(c, (served.get(c) ?? 0) + 1);
    reply(res, 200, Buffer.concat([u32(c), toLE(target, 32), work]), 'application/octet-stream');
  }

  function handleSolved(res: ServerResponse, body: Buffer): void {
    if (body.length !== WORK_BYTES) {
      reply(res, 400, `Decoding error: expected ${WORK_BYTES} bytes, got ${body.length}`);
      return;
    }
    const fields = splitWork(body);
    const key = Buffer.from(fields.payload).toString('hex');
    const work = issued.get(key);
    if (work === undefined) {
      reply(res, 404, 'No associated Payload');
      return;
    }
    issued.delete(key);
    if (le(blake2sWork(body)) > le(fields.target)) {
      reply(res, 400, 'Invalid solved work: Invalid POW hash');
      return;
    }
    res.writeHead(204).end();

    const c = Number(le(fields.chain));
    const hash = kadenaBlockHash(body).toString('base64url');
    const reject = (reason: string) => rejections.push({ chainId: c, height: Number(le(fields.height)), hash, reason });
    const handedOut = splitWork(work.work);
    const changed = FIELDS.map(([name]) => name).filter(
      (name) => name !== 'nonce' && name !== 'time' && !fields[name].equals(handedOut[name]),
    );
    if (changed.length > 0) {
      reject(`fields differ from the work handed out: ${changed.join(', ')}`);
      return;
    }
    if (headOf(c).block.hash !== work.parentHash) {
      reject('orphaned solution: its parent is no longer the head');
      return;
    }
    const time = le(fields.time);
    const h = heightOf(c);
    const parents = [headOf(c), ...adjacentOf(c).map((a) => adjacentAt(a, h))];
    if (parents.some((p) => time <= le(p.fields.time))) {
      reject('CreatedBeforeParent');
      return;
    }
    if (time > nowMicros()) {
      reject('BlockInTheFuture');
      return;
    }
    solvedBlocks.push(extend(fields, work.account));
  }

  function handleUpdates(res: ServerResponse, body: Buffer): void {
    if (body.length !== 4 || !chains.includes(body.readUInt32LE(0))) {
      reply(res, 400, 'Decoding error: a chain id is 4 bytes');
      return;
    }
    if (streams.size >= streamLimit) {
      reply(res, 503, 'No more update streams available currently. Retry later.');
      return;
    }
    const stream: Stream = { chainId: body.readUInt32LE(0), res };
    streams.add(stream);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    const timer = setTimeout(() => res.end(), streamTimeoutMs);
    const done = () => {
      clearTimeout(timer);
      streams.delete(stream);
    };
    // The response's close is the connection's end (the request's fires once its body is read).
    res.on('close', done);
  }

  function handleBranch(res: ServerResponse, c: number, query: URLSearchParams, body: Buffer): void {
    let upper: unknown;
    try {
      upper = (JSON.parse(body.toString('utf8')) as { upper?: unknown }).upper;
    } catch {
      reply(res, 400, 'Error in $: not JSON');
      return;
    }
    if (!Array.isArray(upper)) {
      reply(res, 400, 'Error in $: upper expected');
      return;
    }
    const min = Number(query.get('minheight') ?? 0);
    const max = Number(query.get('maxheight') ?? Number.MAX_SAFE_INTEGER);
    const items: Stored[] = [];
    for (const start of upper) {
      let at = known.get(String(start));
      if (at === undefined || at.block.chainId !== c) {
        reply(res, 404, 'Not Found');
        return;
      }
      while (at !== undefined && at.block.height >= min) {
        if (at.block.height <= max && !items.includes(at)) items.push(at);
        at = at.parent === undefined ? undefined : known.get(at.parent);
      }
    }
    items.sort((a, b) => a.block.height - b.block.height);
    const page = { limit: items.length, items: items.map((s) => s.block.header.toString('base64url')), next: null };
    reply(res, 200, JSON.stringify(page), 'application/json;charset=utf-8');
  }

  function route(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/info') {
      const info = {
        nodeVersion: 'mainnet01',
        nodePackageVersion: '2.31 (stand-in)',
        nodeApiVersion: '0.0',
        nodeChains: chains.map(String),
        nodeNumberOfChains: chains.length,
        nodeBlockDelay: 30_000_000,
      };
      reply(res, 200, JSON.stringify(info), 'application/json;charset=utf-8');
      return;
    }
    if (!path.startsWith(apiPrefix)) {
      reply(res, 404, 'Not Found');
      return;
    }
    const rest = path.slice(apiPrefix.length);
    if (req.method === 'GET' && rest === 'mining/work') {
      handleWork(res, url.searchParams, body);
      return;
    }
    if (req.method === 'POST' && rest === 'mining/solved') {
      handleSolved(res, body);
      return;
    }
    if (req.method === 'GET' && rest === 'mining/updates') {
      handleUpdates(res, body);
      return;
    }
    if (req.method === 'GET' && rest === 'cut') {
      const hashes = Object.fromEntries(
        chains.map((c) => [String(c), { height: heightOf(c), hash: headOf(c).block.hash }]),
      );
      const cut = {
        hashes,
        origin: null,
        weight: 'stand-in',
        height: chains.reduce((sum, c) => sum + heightOf(c), 0),
        instance: 'mainnet01',
        id: randomBytes(32).toString('base64url'),
      };
      reply(res, 200, JSON.stringify(cut), 'application/json;charset=utf-8');
      return;
    }
    const pactReply = pact.route(req.method ?? 'GET', rest, url.searchParams, body);
    if (pactReply) {
      reply(res, pactReply.status, pactReply.body, pactReply.type);
      return;
    }
    const header = /^chain\/(\d+)\/header\/([A-Za-z0-9_-]{43})$/.exec(rest);
    if (req.method === 'GET' && header) {
      const stored = known.get(header[2] as string);
      if (stored === undefined || stored.block.chainId !== Number(header[1])) {
        reply(res, 404, 'Not Found');
        return;
      }
      if ((req.headers.accept ?? '').includes('application/octet-stream')) {
        reply(res, 200, stored.block.header, 'application/octet-stream');
        return;
      }
      reply(res, 200, JSON.stringify(stored.block.header.toString('base64url')), 'application/json');
      return;
    }
    const branch = /^chain\/(\d+)\/header\/branch$/.exec(rest);
    if (req.method === 'POST' && branch) {
      handleBranch(res, Number(branch[1]), url.searchParams, body);
      return;
    }
    reply(res, 404, 'Not Found');
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => route(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    version: 'mainnet01',
    chains,
    solvedBlocks,
    rejections,
    workServed: (chainId) =>
      chainId === undefined ? [...served.values()].reduce((a, b) => a + b, 0) : (served.get(chainId) ?? 0),
    updatesSent: () => updatesSent,
    openStreams: () => streams.size,
    head: (c) => headOf(c).block,
    pact,
    refreshPayload(c) {
      primed.set(c, randomBytes(32));
      emit(c, 'Refreshed Block');
    },
    advanceCut(rounds = 1) {
      for (let r = 0; r < rounds; r++) {
        const target = Math.min(...chains.map(heightOf)) + 1;
        for (const c of chains) if (heightOf(c) < target) extend(externalBlock(c), undefined);
      }
    },
    orphan(c, height) {
      const hashes = mainChain.get(c) as string[];
      const index = height - baseHeight;
      if (index <= 0 || index >= hashes.length) throw new RangeError(`chain ${c} has no block to orphan at ${height}`);
      const replaced = hashes.length - index;
      pact.onOrphan(c, hashes.slice(index));
      hashes.length = index;
      for (let i = 0; i <= replaced; i++) {
        const fields = externalBlock(c);
        const block = store(fields, undefined, headOf(c).block.hash);
        hashes.push(block.hash);
      }
      primed.delete(c);
      emit(c, 'New Cut');
    },
    async close() {
      for (const stream of streams) stream.res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
