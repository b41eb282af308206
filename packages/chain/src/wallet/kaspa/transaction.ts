/**
 * The pool's Kaspa transactions: version 0, native subnetwork, no payload, inputs that spend the
 * pool's pay-to-pubkey (Schnorr) outputs. What the wallet hashes and signs, and the RPC JSON it sends.
 *
 * Hashing follows kaspanet/rusty-kaspa @593399eb: consensus/core/src/hashing/tx.rs (`id_v0`: the
 * transaction with empty signature scripts and no mass commitment, blake2b-256 keyed "TransactionID")
 * and consensus/core/src/hashing/sighash.rs (`calc_schnorr_signature_hash`, the version-0 path, keyed
 * "TransactionSigningHash"). Integers are little-endian and byte strings carry a u64 length
 * (consensus/core/src/hashing/mod.rs). Only SigHashAll is built here: the pool signs every input over
 * every output.
 */
import { blake2b } from '@noble/hashes/blake2.js';

/** A script public key: its version (0 for every standard script) and the script bytes. */
export interface ScriptPublicKey {
  version: number;
  script: Uint8Array;
}

export interface TxInput {
  /** The spent output: its transaction id (hex, as RPC writes it, hashed in that byte order) and index. */
  txid: string;
  index: number;
  sequence: bigint;
  /** Signature operations the input's script runs: 1 for pay-to-pubkey (one OP_CHECKSIG). */
  sigOpCount: number;
  signatureScript: Uint8Array;
}

export interface TxOutput {
  value: bigint;
  scriptPublicKey: ScriptPublicKey;
}

export interface Transaction {
  inputs: TxInput[];
  outputs: TxOutput[];
  lockTime: bigint;
  /** The KIP-9 storage mass the transaction commits to (hashed only into the transaction hash, not its id). */
  storageMass: bigint;
}

/** What an input spends: the value and lock of the output, as the UTXO set holds it. */
export interface SpentOutput {
  amount: bigint;
  scriptPublicKey: ScriptPublicKey;
}

/** SIG_HASH_ALL (consensus/core/src/hashing/sighash_type.rs). */
export const SIG_HASH_ALL = 0x01;
const TX_VERSION = 0;
const NATIVE_SUBNETWORK = new Uint8Array(20);

/** Bytes written in order, then hashed once with a keyed blake2b-256. */
class HashWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  bytes(data: Uint8Array): this {
    this.chunks.push(data);
    this.length += data.length;
    return this;
  }

  hex(hex: string): this {
    return this.bytes(Buffer.from(hex, 'hex'));
  }

  u8(value: number): this {
    return this.bytes(Uint8Array.of(value));
  }

  u16(value: number): this {
    const out = new Uint8Array(2);
    new DataView(out.buffer).setUint16(0, value, true);
    return this.bytes(out);
  }

  u32(value: number): this {
    const out = new Uint8Array(4);
    new DataView(out.buffer).setUint32(0, value, true);
    return this.bytes(out);
  }

  u64(value: bigint | number): this {
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, BigInt(value), true);
    return this.bytes(out);
  }

  varBytes(data: Uint8Array): this {
    return this.u64(data.length).bytes(data);
  }

  script(spk: ScriptPublicKey): this {
    return this.u16(spk.version).varBytes(spk.script);
  }

  digest(key: string): Uint8Array {
    const all = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    return blake2b(all, { dkLen: 32, key: new TextEncoder().encode(key) });
  }
}

const SIGNING_KEY = 'TransactionSigningHash';

/** The transaction id (`id_v0`): what RPC reports, what outpoints name, unchanged by signatures. */
export function transactionId(tx: Transaction): string {
  const w = new HashWriter().u16(TX_VERSION).u64(tx.inputs.length);
  for (const input of tx.inputs) {
    // Signature scripts are written empty and sig-op counts left out, so signing does not change the id.
    w.hex(input.txid).u32(input.index).varBytes(new Uint8Array()).u64(input.sequence);
  }
  w.u64(tx.outputs.length);
  for (const output of tx.outputs) w.u64(output.value).script(output.scriptPublicKey);
  w.u64(tx.lockTime).bytes(NATIVE_SUBNETWORK).u64(0).varBytes(new Uint8Array());
  return Buffer.from(w.digest('TransactionID')).toString('hex');
}

/**
 * The message input `index` signs with SigHashAll. `spent[i]` is what input i spends; only the signed
 * input's entry enters the hash, but every outpoint, sequence and sig-op count does.
 */
export function signatureHashAll(tx: Transaction, index: number, spent: SpentOutput): Uint8Array {
  const input = tx.inputs[index];
  if (input === undefined) throw new RangeError(`no input ${index}`);
  const previousOutputs = new HashWriter();
  const sequences = new HashWriter();
  const sigOpCounts = new HashWriter();
  for (const each of tx.inputs) {
    previousOutputs.hex(each.txid).u32(each.index);
    sequences.u64(each.sequence);
    sigOpCounts.u8(each.sigOpCount);
  }
  const outputs = new HashWriter();
  for (const output of tx.outputs) outputs.u64(output.value).script(output.scriptPublicKey);
  return (
    new HashWriter()
      .u16(TX_VERSION)
      .bytes(previousOutputs.digest(SIGNING_KEY))
      .bytes(sequences.digest(SIGNING_KEY))
      // Version 0 commits to the sig-op counts (version 1 to compute budgets instead).
      .bytes(sigOpCounts.digest(SIGNING_KEY))
      .hex(input.txid)
      .u32(input.index)
      .script(spent.scriptPublicKey)
      .u64(spent.amount)
      .u64(input.sequence)
      .u8(input.sigOpCount)
      .bytes(outputs.digest(SIGNING_KEY))
      .u64(tx.lockTime)
      .bytes(NATIVE_SUBNETWORK)
      .u64(0)
      // A native transaction with no payload writes the zero hash, not a hash of nothing (`payload_hash`).
      .bytes(new Uint8Array(32))
      .u8(SIG_HASH_ALL)
      .digest(SIGNING_KEY)
  );
}

/** Script public key as RPC JSON writes it: the version as 2 big-endian bytes, then the script, hex. */
export function scriptToJson(spk: ScriptPublicKey): string {
  return spk.version.toString(16).padStart(4, '0') + Buffer.from(spk.script).toString('hex');
}

export function scriptFromJson(hex: string): ScriptPublicKey {
  if (!/^(?:[0-9a-f]{2}){2,}$/.test(hex)) throw new TypeError(`script public key ${hex} is not versioned hex`);
  return { version: Number.parseInt(hex.slice(0, 4), 16), script: Buffer.from(hex.slice(4), 'hex') };
}

/**
 * The RpcTransaction JSON kaspad's submitTransaction reads (rusty-kaspa rpc/core/src/model/tx.rs):
 * u64 fields as bigints, written as bare integers by the exact JSON writer. The storage mass goes in
 * both `storageMass` and the older `mass` (nodes before the rename read `mass`; newer ones require the
 * two to agree).
 */
export function transactionToJson(tx: Transaction): Record<string, unknown> {
  return {
    version: TX_VERSION,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: { transactionId: input.txid, index: input.index },
      signatureScript: Buffer.from(input.signatureScript).toString('hex'),
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
    })),
    outputs: tx.outputs.map((output) => ({
      value: output.value,
      scriptPublicKey: scriptToJson(output.scriptPublicKey),
    })),
    lockTime: tx.lockTime,
    subnetworkId: '00'.repeat(20),
    gas: 0n,
    payload: '',
    storageMass: tx.storageMass,
    mass: tx.storageMass,
  };
}
