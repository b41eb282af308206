/**
 * The dashd stand-in's own reading and checking of a submitted Dash block. It shares no code with the
 * pool's builder (packages/chain/src/jobs, src/dash/template.ts): it decodes the bytes as Dash Core
 * does, recomputes the X11 proof of work with @lodestone/pow, every txid over the full serialization
 * and the merkle root, and checks the coinbase against the template the stand-in gave, answering with
 * Dash Core's reject reasons:
 *
 * - `high-hash` (CheckBlockHeader), `bad-txnmrklroot` (CheckBlock), `prev-blk-not-found`,
 *   `bad-diffbits`, `time-too-old` (AcceptBlockHeader / ContextualCheckBlockHeader) and `bad-cb-height`
 *   (ContextualCheckBlock, BIP34) as in Bitcoin Core, which Dash Core inherits;
 * - `bad-cb-type`: after DIP3 a coinbase that is not a CbTx (Dash Core src/validation.cpp
 *   ContextualCheckBlock);
 * - `bad-cb-amount` and `bad-cb-payee`: ConnectBlock's IsBlockValueValid and IsBlockPayeeValid (Dash
 *   Core src/validation.cpp, commit 002d58d7e4cae084996399662afc557ccdd307ce; payees are exact
 *   (amount, script) outputs, src/masternode/payments.cpp IsTransactionValid);
 * - `bad-cbtx-payload`, `bad-cbtx-version`, `bad-cbtx-height`, `bad-cbtx-mnmerkleroot`,
 *   `bad-cbtx-quorummerkleroot`, `bad-cbtx-invalid-clsig` (src/evo/cbtx.cpp CheckCbTx,
 *   CheckCbTxMerkleRoots, CheckCbTxBestChainlock, commit 02a9ff69ee93508c9246e006d851113f08c67341) and
 *   `bad-cbtx-assetlocked-amount` (src/evo/specialtxman.cpp, the credit pool balance).
 *
 * What a real node computes from state the stand-in does not have (the masternode list, quorums,
 * ChainLocks, the credit pool) is taken from the template it gave: a block must carry exactly those.
 */
import { POW } from '@lodestone/pow';
import { sha256d } from '../bitcoin/hash.js';
import { ByteReader, ParseError } from '../bitcoin/reader.js';
import { parseCbTx } from '../dash/cbtx.js';

export interface DashTx {
  raw: Buffer;
  /** sha256d of the whole serialization, internal byte order. */
  txid: Buffer;
  /** Dash's 16-bit version and type (DIP2), from the 32-bit field. */
  version: number;
  type: number;
  inputs: { prevTxid: Buffer; prevIndex: number; script: Buffer; sequence: number }[];
  outputs: { value: bigint; script: Buffer }[];
  lockTime: number;
  /** The extra payload of a special transaction (version 3, type ≠ 0). */
  payload?: Buffer;
}

export interface DashBlock {
  headerBytes: Buffer;
  version: number;
  /** RPC hex. */
  previousBlockHash: string;
  /** Internal byte order. */
  merkleRoot: Buffer;
  time: number;
  bits: number;
  nonce: number;
  transactions: DashTx[];
}

/** The RPC (reversed) hex of a 32-byte hash. */
export function rpcHex(hash: Uint8Array): string {
  return Buffer.from(hash).reverse().toString('hex');
}

/** A Dash transaction: no segwit; after the lock time an extra payload when version is 3 and type not 0. */
export function readDashTx(reader: ByteReader): DashTx {
  const start = reader.position;
  const field = reader.uint32('tx version');
  const version = field & 0xffff;
  const type = field >>> 16;
  const inputs: DashTx['inputs'] = [];
  const inputCount = reader.varInt('input count');
  for (let i = 0; i < inputCount; i++) {
    inputs.push({
      prevTxid: Buffer.from(reader.bytes(32, 'prevout')),
      prevIndex: reader.uint32('prevout index'),
      script: Buffer.from(reader.varBytes('scriptSig')),
      sequence: reader.uint32('sequence'),
    });
  }
  const outputs: DashTx['outputs'] = [];
  const outputCount = reader.varInt('output count');
  for (let i = 0; i < outputCount; i++) {
    outputs.push({ value: reader.uint64('value'), script: Buffer.from(reader.varBytes('scriptPubKey')) });
  }
  const lockTime = reader.uint32('lock time');
  const tx: Omit<DashTx, 'raw' | 'txid'> = { version, type, inputs, outputs, lockTime };
  if (version === 3 && type !== 0) tx.payload = Buffer.from(reader.varBytes('extra payload'));
  const raw = Buffer.from(reader.slice(start, reader.position));
  return { ...tx, raw, txid: sha256d(raw) };
}

export function decodeDashBlock(bytes: Uint8Array): DashBlock {
  const reader = new ByteReader(bytes);
  const headerBytes = Buffer.from(reader.bytes(80, 'header'));
  const count = reader.varInt('transaction count');
  const transactions: DashTx[] = [];
  for (let i = 0; i < count; i++) transactions.push(readDashTx(reader));
  if (reader.remaining !== 0) throw new ParseError(`${reader.remaining} bytes after the last transaction`);
  return {
    headerBytes,
    version: headerBytes.readInt32LE(0),
    previousBlockHash: rpcHex(headerBytes.subarray(4, 36)),
    merkleRoot: Buffer.from(headerBytes.subarray(36, 68)),
    time: headerBytes.readUInt32LE(68),
    bits: headerBytes.readUInt32LE(72),
    nonce: headerBytes.readUInt32LE(76),
    transactions,
  };
}

/** X11 of the header: the proof of work and, in RPC order, the block's hash. */
export function dashBlockHash(headerBytes: Uint8Array): string {
  return rpcHex(POW.x11.hash(headerBytes));
}

/** Bitcoin's ComputeMerkleRoot over txids (internal order), odd levels pairing the last with itself. */
export function merkleRootOf(txids: readonly Buffer[]): Buffer {
  let level = [...txids];
  if (level.length === 0) return Buffer.alloc(32);
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Buffer;
      next.push(sha256d(Buffer.concat([left, level[i + 1] ?? left])));
    }
    level = next;
  }
  return level[0] as Buffer;
}

/** A payee the template asked for (Dash Core's getblocktemplate `masternode` / `superblock` entries). */
export interface ExpectedPayee {
  payee: string;
  /** scriptPubKey hex. */
  script: string;
  amount: number;
}

/** What the stand-in's template for the block promised, and what it checks the block against. */
export interface BlockExpectation {
  height: number;
  /** RPC hex. */
  previousBlockHash: string;
  bits: number;
  /** Earliest allowed header time (median time past + 1). */
  mintime: number;
  /** Subsidy + fees: what vout[0] plus the masternode payments may add up to. */
  blockReward: bigint;
  masternode: readonly ExpectedPayee[];
  superblock: readonly ExpectedPayee[];
  /** The CbTx payload the template gave, hex. */
  coinbasePayload: string;
}

/** The minimal push of a block height, as `CScript() << nHeight` writes it (BIP34). */
function heightPush(height: number): Buffer {
  if (height >= 1 && height <= 16) return Buffer.from([0x50 + height]);
  const bytes: number[] = [];
  for (let n = height; n > 0; n = Math.floor(n / 256)) bytes.push(n & 0xff);
  if (((bytes[bytes.length - 1] ?? 0) & 0x80) !== 0) bytes.push(0);
  return Buffer.from([bytes.length, ...bytes]);
}

/**
 * Context-free and header checks, in Dash Core's order: proof of work, then the merkle root. Returns
 * the reject reason, or undefined.
 */
export function checkBlockAlone(block: DashBlock): string | undefined {
  const pow = POW.x11;
  const hashValue = pow.hashValue(pow.hash(block.headerBytes));
  if (hashValue > targetOf(block.bits)) return 'high-hash';
  if (!merkleRootOf(block.transactions.map((tx) => tx.txid)).equals(block.merkleRoot)) return 'bad-txnmrklroot';
  return undefined;
}

/** Contextual checks against the template the block was built from. Returns the reject reason, or undefined. */
export function checkBlockAgainst(block: DashBlock, expected: BlockExpectation): string | undefined {
  if (block.bits !== expected.bits) return 'bad-diffbits';
  if (block.time < expected.mintime) return 'time-too-old';
  const coinbase = block.transactions[0];
  if (coinbase === undefined) return 'bad-cb-missing';
  const scriptSig = coinbase.inputs[0]?.script ?? Buffer.alloc(0);
  const push = heightPush(expected.height);
  if (!scriptSig.subarray(0, push.length).equals(push)) return 'bad-cb-height';
  if (coinbase.type !== 5) return 'bad-cb-type';

  // ConnectBlock: IsBlockValueValid, then IsBlockPayeeValid.
  const superblockTotal = expected.superblock.reduce((sum, p) => sum + BigInt(p.amount), 0n);
  const valueOut = coinbase.outputs.reduce((sum, o) => sum + o.value, 0n);
  if (valueOut > expected.blockReward + superblockTotal) return 'bad-cb-amount';
  for (const payee of [...expected.masternode, ...expected.superblock]) {
    const script = Buffer.from(payee.script, 'hex');
    const found = coinbase.outputs.some((o) => o.value === BigInt(payee.amount) && o.script.equals(script));
    if (!found) return 'bad-cb-payee';
  }

  // ProcessSpecialTxsInBlock: CheckCbTx, CheckCbTxMerkleRoots, CheckCbTxBestChainlock, the credit pool.
  if (coinbase.version !== 3 || coinbase.payload === undefined) return 'bad-cbtx-type';
  let cbtx: ReturnType<typeof parseCbTx>;
  let want: ReturnType<typeof parseCbTx>;
  try {
    cbtx = parseCbTx(coinbase.payload);
  } catch {
    return 'bad-cbtx-payload';
  }
  try {
    want = parseCbTx(Buffer.from(expected.coinbasePayload, 'hex'));
  } catch (error) {
    throw new Error(`the stand-in's own coinbase_payload does not parse: ${(error as Error).message}`);
  }
  if (cbtx.version !== want.version) return 'bad-cbtx-version';
  if (cbtx.height !== expected.height) return 'bad-cbtx-height';
  if (!cbtx.merkleRootMNList.equals(want.merkleRootMNList)) return 'bad-cbtx-mnmerkleroot';
  if (!sameBytes(cbtx.merkleRootQuorums, want.merkleRootQuorums)) return 'bad-cbtx-quorummerkleroot';
  if (cbtx.bestCLHeightDiff !== want.bestCLHeightDiff || !sameBytes(cbtx.bestCLSignature, want.bestCLSignature)) {
    return 'bad-cbtx-invalid-clsig';
  }
  if (cbtx.creditPoolBalance !== want.creditPoolBalance) return 'bad-cbtx-assetlocked-amount';
  return undefined;
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}

/** arith_uint256::SetCompact, for positive targets. */
export function targetOf(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}
