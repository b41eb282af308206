import { int32LE, uint32LE, uint64LE } from './bytes.js';
import { bip34HeightPush, encodeVarInt, pushData } from './serialize.js';

export interface TxOutput {
  value: bigint;
  script: Uint8Array;
}

export interface CoinbaseParts {
  /** Serialized coinbase (legacy, no witness) up to the extranonce. */
  coinbase1: Buffer;
  /** Serialized coinbase after the extranonce. */
  coinbase2: Buffer;
  /** coinbase1 ‖ extranonce ‖ coinbase2 is the transaction; its length is coinbase1 + extranonceSize + coinbase2. */
  extranonceSize: number;
}

export interface CoinbaseOptions {
  height: number;
  outputs: readonly TxOutput[];
  /** Bytes reserved for extranonce1 ‖ extranonce2. */
  extranonceSize: number;
  /** Extra bytes the template asks for in the scriptSig (`coinbaseaux` values), placed after the height. */
  auxData?: Uint8Array;
  /** Short ASCII/UTF-8 text identifying the pool, pushed after the extranonce. */
  poolTag?: string;
  /** Transaction version; 1 unless a coin needs otherwise. */
  version?: number;
  lockTime?: number;
}

/**
 * Consensus bound of a coinbase scriptSig (Bitcoin Core consensus/tx_check.cpp: bad-cb-length, 2 to 100
 * bytes). Ours always holds the height push and the extranonces, so only the upper bound can be broken.
 */
export const COINBASE_SCRIPT_MAX = 100;

/**
 * Builds the coinbase transaction split around the extranonce, stratum style. The scriptSig is
 * `push(height)` (BIP34) ‖ aux ‖ `push(extranonce)` ‖ `push(pool tag)`, so coinbase1 ends with the push
 * opcode of the extranonce and coinbase2 starts right after it. Both halves use the legacy serialization,
 * which is what the transaction id (and so the merkle root) is computed over.
 */
export function buildCoinbase(options: CoinbaseOptions): CoinbaseParts {
  const { height, outputs, extranonceSize } = options;
  if (!Number.isInteger(extranonceSize) || extranonceSize < 2 || extranonceSize > 32) {
    throw new RangeError(`extranonce size ${extranonceSize} is out of range 2..32`);
  }
  if (outputs.length === 0) throw new RangeError('a coinbase needs at least one output');

  const heightPush = bip34HeightPush(height);
  const aux = options.auxData ?? Buffer.alloc(0);
  const tag = options.poolTag ? pushData(Buffer.from(options.poolTag, 'utf8')) : Buffer.alloc(0);
  const scriptBefore = Buffer.concat([heightPush, aux, Buffer.from([extranonceSize])]);
  const scriptLength = scriptBefore.length + extranonceSize + tag.length;
  if (scriptLength > COINBASE_SCRIPT_MAX) {
    throw new RangeError(
      `coinbase scriptSig would be ${scriptLength} bytes (max ${COINBASE_SCRIPT_MAX}): shorten the pool tag`,
    );
  }

  const coinbase1 = Buffer.concat([
    int32LE(options.version ?? 1),
    encodeVarInt(1),
    Buffer.alloc(32), // previous output: null hash
    uint32LE(0xffffffff), // ... and index 0xffffffff
    encodeVarInt(scriptLength),
    scriptBefore,
  ]);
  const coinbase2 = Buffer.concat([
    tag,
    uint32LE(0xffffffff), // sequence
    serializeOutputs(outputs),
    uint32LE(options.lockTime ?? 0),
  ]);
  return { coinbase1, coinbase2, extranonceSize };
}

export function serializeOutputs(outputs: readonly TxOutput[]): Buffer {
  const parts: Buffer[] = [encodeVarInt(outputs.length)];
  for (const out of outputs) {
    if (out.value < 0n) throw new RangeError('negative output value');
    parts.push(uint64LE(out.value), encodeVarInt(out.script.length), Buffer.from(out.script));
  }
  return Buffer.concat(parts);
}

/**
 * The witness serialization (BIP144) of a legacy-serialized coinbase: marker 0x00, flag 0x01, and one
 * witness stack for its single input holding the 32-byte witness reserved value (all zero), which BIP141
 * requires whenever the block carries a witness commitment.
 */
export function coinbaseWithWitness(legacy: Uint8Array): Buffer {
  const bytes = Buffer.from(legacy.buffer, legacy.byteOffset, legacy.byteLength);
  const body = bytes.subarray(4, bytes.length - 4);
  return Buffer.concat([
    bytes.subarray(0, 4),
    Buffer.from([0x00, 0x01]),
    body,
    Buffer.from([0x01, 0x20]),
    Buffer.alloc(32),
    bytes.subarray(bytes.length - 4),
  ]);
}
