/**
 * The stand-in kaspad's transaction checks, written apart from the pool's wallet (../wallet/kaspa) so
 * that the node verifies what the wallet sends instead of agreeing with it by construction. Proven in
 * kaspaTxVerifier.test.ts on kaspanet/rusty-kaspa's own vectors (sighash, storage mass, relay fee) and on
 * real signed transactions of the Go reference node's DAG.
 *
 * What it models is kaspad's mempool admission of an RPC transaction (rusty-kaspa tag v2.0.1 before
 * Toccata activates, the current mainnet release line; mining/src/mempool/validate_and_insert_transaction.rs):
 * consensus checks in isolation, the standard mass cap of 100,000 per dimension, standard output scripts,
 * UTXO population (no orphans), coinbase maturity, input/output amounts, every input's script run (a
 * pay-to-pubkey OP_CHECKSIG: BIP-340 Schnorr over the sighash), the storage mass cap, and the relay fee
 * floor. Refusals carry kaspad's own words (mining/errors/src/mempool.rs, consensus/core/src/errors/tx.rs,
 * crypto/txscript/errors/src/lib.rs), wrapped by the RPC service as "Rejected transaction <id>: <reason>".
 */
import { schnorr } from '@noble/curves/secp256k1.js';
import { blake2b } from '@noble/hashes/blake2.js';

/** A transaction as the RPC JSON carries it, after the shape is checked. */
export interface VerifierTransaction {
  version: number;
  inputs: {
    transactionId: string;
    index: number;
    signatureScript: Uint8Array;
    sequence: bigint;
    sigOpCount: number;
    computeBudget: number;
  }[];
  outputs: { value: bigint; spkVersion: number; script: Uint8Array }[];
  lockTime: bigint;
  subnetworkId: Uint8Array;
  gas: bigint;
  payload: Uint8Array;
}

/** A UTXO entry (consensus/core/src/tx.rs `UtxoEntry`). */
export interface VerifierEntry {
  amount: bigint;
  spkVersion: number;
  script: Uint8Array;
  blockDaaScore: bigint;
  isCoinbase: boolean;
}

const encoder = new TextEncoder();
const SIGNING_KEY = encoder.encode('TransactionSigningHash');
const ZERO_HASH = new Uint8Array(32);

function le(value: bigint | number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let v = BigInt(value);
  for (let i = 0; i < size; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function cat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function signingHash(parts: readonly Uint8Array[]): Uint8Array {
  return blake2b(cat(parts), { dkLen: 32, key: SIGNING_KEY });
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

const withLength = (bytes: Uint8Array) => [le(bytes.length, 8), bytes];

// Sighash types (consensus/core/src/hashing/sighash_type.rs).
const ALL = 0x01;
const NONE = 0x02;
const SINGLE = 0x04;
const ANYONE_CAN_PAY = 0x80;
const ALLOWED_TYPES = new Set([
  ALL,
  NONE,
  SINGLE,
  ALL | ANYONE_CAN_PAY,
  NONE | ANYONE_CAN_PAY,
  SINGLE | ANYONE_CAN_PAY,
]);

function outputBytes(o: VerifierTransaction['outputs'][number]): Uint8Array[] {
  return [le(o.value, 8), le(o.spkVersion, 2), ...withLength(o.script)];
}

/**
 * `calc_schnorr_signature_hash` for a version-0 transaction with any allowed hash type
 * (consensus/core/src/hashing/sighash.rs). `entry` is the UTXO input `index` spends.
 */
export function verifierSignatureHash(
  tx: VerifierTransaction,
  index: number,
  entry: Pick<VerifierEntry, 'amount' | 'spkVersion' | 'script'>,
  hashType: number,
): Uint8Array {
  if (tx.version !== 0) throw new RangeError('the stand-in hashes version-0 transactions only');
  if (!ALLOWED_TYPES.has(hashType)) throw new RangeError(`invalid hash type ${hashType}`);
  const input = tx.inputs[index];
  if (!input) throw new RangeError(`no input ${index}`);
  const base = hashType & 0x07;
  const anyoneCanPay = (hashType & ANYONE_CAN_PAY) !== 0;
  const previousOutputs = anyoneCanPay
    ? ZERO_HASH
    : signingHash(tx.inputs.flatMap((i) => [hexBytes(i.transactionId), le(i.index, 4)]));
  const sequences =
    anyoneCanPay || base === SINGLE || base === NONE ? ZERO_HASH : signingHash(tx.inputs.map((i) => le(i.sequence, 8)));
  const sigOps = anyoneCanPay ? ZERO_HASH : signingHash(tx.inputs.map((i) => Uint8Array.of(i.sigOpCount)));
  let outputs: Uint8Array;
  if (base === NONE) outputs = ZERO_HASH;
  else if (base === SINGLE) {
    const own = tx.outputs[index];
    outputs = own ? signingHash(outputBytes(own)) : ZERO_HASH;
  } else outputs = signingHash(tx.outputs.flatMap(outputBytes));
  const native = tx.subnetworkId.every((b) => b === 0);
  const payload = native && tx.payload.length === 0 ? ZERO_HASH : signingHash(withLength(tx.payload));
  return signingHash([
    le(tx.version, 2),
    previousOutputs,
    sequences,
    sigOps,
    hexBytes(input.transactionId),
    le(input.index, 4),
    le(entry.spkVersion, 2),
    ...withLength(entry.script),
    le(entry.amount, 8),
    le(input.sequence, 8),
    Uint8Array.of(input.sigOpCount),
    outputs,
    le(tx.lockTime, 8),
    tx.subnetworkId,
    le(tx.gas, 8),
    payload,
    Uint8Array.of(hashType),
  ]);
}

// -------------------------------------------------------------------------------------------------
// Mass (consensus/core/src/mass/mod.rs; params: mass per byte 1, per script byte 10, per sig-op 1000)

const STORM = 1_000_000_000_000n;

export function verifierSize(tx: VerifierTransaction): bigint {
  let size = 2 + 8 + 8 + 8 + 20 + 8 + 32 + 8 + tx.payload.length;
  for (const i of tx.inputs) size += 32 + 4 + 8 + i.signatureScript.length + 8;
  for (const o of tx.outputs) size += 8 + 2 + 8 + o.script.length;
  return BigInt(size);
}

export function verifierComputeMass(tx: VerifierTransaction): bigint {
  let mass = verifierSize(tx);
  for (const o of tx.outputs) mass += 10n * BigInt(2 + o.script.length);
  for (const i of tx.inputs) mass += 1000n * BigInt(i.sigOpCount);
  return mass;
}

export function verifierTransientMass(tx: VerifierTransaction): bigint {
  return verifierSize(tx) * 4n;
}

/** `calc_storage_mass` over (plurality, amount) cells; undefined when incomputable (a zero amount). */
export function verifierStorageMass(
  inputs: readonly { amount: bigint; scriptLength: number }[],
  outputs: readonly { amount: bigint; scriptLength: number }[],
  storm = STORM,
): bigint | undefined {
  const cell = (c: { amount: bigint; scriptLength: number }) => ({
    p: BigInt(Math.ceil((63 + c.scriptLength) / 100)),
    amount: c.amount,
  });
  const outs = outputs.map(cell);
  const ins = inputs.map(cell);
  if (outs.some((c) => c.amount === 0n)) return undefined;
  const outPlurality = outs.reduce((n, c) => n + c.p, 0n);
  const harmonicOuts = outs.reduce((n, c) => n + (storm * c.p * c.p) / c.amount, 0n);
  const inPlurality = ins.reduce((n, c) => n + c.p, 0n);
  const relaxed =
    outPlurality === 1n || (ins.length <= 2 && (inPlurality === 1n || (outPlurality === 2n && inPlurality === 2n)));
  let credit: bigint;
  if (relaxed) {
    if (ins.some((c) => c.amount === 0n)) return undefined;
    credit = ins.reduce((n, c) => n + (storm * c.p * c.p) / c.amount, 0n);
  } else {
    const mean = ins.reduce((n, c) => n + c.amount, 0n) / inPlurality;
    credit = inPlurality * (storm / (mean > 0n ? mean : 1n));
  }
  return harmonicOuts > credit ? harmonicOuts - credit : 0n;
}

/** `minimum_required_transaction_relay_fee` (check_transaction_standard.rs): sompi for `mass` at `perKilogram`. */
export function verifierMinimumFee(mass: bigint, perKilogram = 100_000n): bigint {
  const fee = (mass * perKilogram) / 1000n;
  const floor = fee === 0n ? perKilogram : fee;
  const maxSompi = 29_000_000_000n * 100_000_000n;
  return floor < maxSompi ? floor : maxSompi;
}

// -------------------------------------------------------------------------------------------------
// Scripts

/** The script class of a script public key (crypto/txscript/src/script_class.rs), or undefined when non-standard. */
export function scriptClass(version: number, script: Uint8Array): 'pubkey' | 'pubkeyecdsa' | 'scripthash' | undefined {
  if (version !== 0) return undefined;
  if (script.length === 34 && script[0] === 0x20 && script[33] === 0xac) return 'pubkey';
  if (script.length === 35 && script[0] === 0x21 && script[34] === 0xab) return 'pubkeyecdsa';
  if (script.length === 35 && script[0] === 0xaa && script[1] === 0x20 && script[34] === 0x87) return 'scripthash';
  return undefined;
}

/** A refusal in kaspad's words (the RPC error message of submitTransaction). */
export class KaspadRejection extends Error {}

export interface VerifyContext {
  id: string;
  /** The UTXO each input spends, or undefined when it is not in the UTXO set. */
  entries: readonly (VerifierEntry | undefined)[];
  virtualDaaScore: bigint;
  coinbaseMaturity: bigint;
}

/**
 * Runs every check of an RPC transaction that does not depend on the mempool's other transactions;
 * returns the fee. Throws KaspadRejection with kaspad's message.
 */
export function verifyTransaction(tx: VerifierTransaction, ctx: VerifyContext): { fee: bigint; storageMass: bigint } {
  const reject = (reason: string): never => {
    throw new KaspadRejection(`Rejected transaction ${ctx.id}: ${reason}`);
  };
  const nonStandard = (reason: string) => reject(`transaction ${ctx.id} is not standard: ${reason}`);
  // consensus/src/processes/transaction_validator/tx_validation_in_isolation.rs
  if (tx.version > 1) reject(`transaction version ${tx.version} is unknown`);
  if (tx.version !== 0) reject('the stand-in accepts version-0 transactions only');
  if (tx.inputs.length === 0) reject('transaction has no inputs');
  const outpoints = new Set(tx.inputs.map((i) => `${i.transactionId}:${i.index}`));
  if (outpoints.size !== tx.inputs.length) reject('transaction has duplicate inputs');
  tx.outputs.forEach((o, i) => {
    if (o.value === 0n) reject(`transaction output ${i} has zero value`);
  });
  tx.inputs.forEach((input, i) => {
    if (input.computeBudget !== 0)
      reject(
        `transaction input #${i} has a compute budget field with value ${input.computeBudget} in version 0 transaction`,
      );
  });
  if (!tx.subnetworkId.every((b) => b === 0)) reject('the stand-in accepts native transactions only');
  if (tx.gas !== 0n) reject('transaction has non-zero gas: native transaction');

  // check_transaction_standard.rs (v2.0.1) `check_transaction_standard_in_isolation`
  const cap = 100_000n;
  const compute = verifierComputeMass(tx);
  const transient = verifierTransientMass(tx);
  if (compute > cap) nonStandard(`transaction compute mass of ${compute} is larger than max allowed size of ${cap}`);
  if (transient > cap) {
    nonStandard(`transaction transient (storage) mass of ${transient} is larger than max allowed size of ${cap}`);
  }
  tx.outputs.forEach((o, i) => {
    if (o.spkVersion > 0)
      nonStandard(`transaction output #${i}: the version of the scriptPublicKey is higher than the known version`);
    if (!scriptClass(o.spkVersion, o.script)) nonStandard(`transaction output #${i}: non-standard script form`);
  });

  // Population from the UTXO set: with orphans forbidden, a missing outpoint is a refusal.
  if (ctx.entries.some((e) => e === undefined)) reject(`transaction ${ctx.id} is an orphan where orphan is disallowed`);
  const entries = ctx.entries as readonly VerifierEntry[];

  // tx_validation_in_utxo_context.rs
  entries.forEach((entry, i) => {
    if (entry.isCoinbase && entry.blockDaaScore + ctx.coinbaseMaturity > ctx.virtualDaaScore) {
      const input = tx.inputs[i] as VerifierTransaction['inputs'][number];
      reject(
        `one of the transaction inputs spends an immature UTXO: transaction input #${i} tried to spend coinbase outpoint ` +
          `(${input.transactionId}, ${input.index}) with daa score of ${entry.blockDaaScore}\n    while the merging block daa ` +
          `score is ${ctx.virtualDaaScore} and the coinbase maturity period of ${ctx.coinbaseMaturity} hasn't passed yet`,
      );
    }
  });
  const totalIn = entries.reduce((n, e) => n + e.amount, 0n);
  const totalOut = tx.outputs.reduce((n, o) => n + o.value, 0n);
  if (totalIn < totalOut) reject(`transaction tries to spend ${totalOut} while its total inputs amount is ${totalIn}`);
  for (const [i, entry] of entries.entries()) runInputScript(tx, i, entry, reject);

  const storage = verifierStorageMass(
    entries.map((e) => ({ amount: e.amount, scriptLength: e.script.length })),
    tx.outputs.map((o) => ({ amount: o.value, scriptLength: o.script.length })),
  );
  if (storage === undefined) reject('contextual mass (including storage mass) is incomputable');
  if ((storage as bigint) > cap) {
    nonStandard(`transaction storage mass of ${storage} is larger than max allowed size of ${cap}`);
  }
  // check_transaction_standard_in_context: an RPC transaction is high priority, so the floor is 100
  // sompi per gram over max(compute, transient normalized by the block limits 500,000 / 1,000,000).
  const normalizedTransient = (transient * 500_000n + 999_999n) / 1_000_000n;
  const feeMass = compute > normalizedTransient ? compute : normalizedTransient;
  const minimum = verifierMinimumFee(feeMass);
  const fee = totalIn - totalOut;
  if (fee < minimum) {
    nonStandard(
      compute >= normalizedTransient
        ? `transaction has ${fee} fees which is under the required amount of ${minimum} for compute mass ${compute}`
        : `transaction has ${fee} fees which is under the required amount of ${minimum} for normalized transient mass ${normalizedTransient} (proportional to transaction byte size)`,
    );
  }
  return { fee, storageMass: storage as bigint };
}

/**
 * Runs input `i`'s signature script against the spent pay-to-pubkey script: the signature script must
 * push one 65-byte item (64-byte Schnorr signature ‖ hash type); OP_CHECKSIG then verifies it over the
 * sighash. Other standard classes are refused by the stand-in (the pool never receives them).
 */
function runInputScript(tx: VerifierTransaction, i: number, entry: VerifierEntry, reject: (reason: string) => never) {
  const input = tx.inputs[i] as VerifierTransaction['inputs'][number];
  const fail = (what: string) => reject(`failed to verify the signature script: ${what}`);
  if (scriptClass(entry.spkVersion, entry.script) !== 'pubkey') fail('the stand-in runs pay-to-pubkey scripts only');
  // One OP_CHECKSIG: the sig-op count committed for the input must say so (WrongSigOpCount).
  if (input.sigOpCount !== 1) reject(`input ${i} sig op count is ${input.sigOpCount}, but the calculated value is 1`);
  const sigScript = input.signatureScript;
  if (sigScript.length === 0)
    reject('failed to verify empty signature script. Inner error: attempt to read from empty stack');
  if (sigScript[0] !== 0x41 || sigScript.length !== 66) {
    fail(
      sigScript[0] !== undefined && sigScript[0] > 0x60
        ? 'signature script is not push only'
        : 'stack contains 1 unexpected items',
    );
  }
  const hashType = sigScript[65] as number;
  if (!ALLOWED_TYPES.has(hashType)) fail(`invalid hash type 0x${hashType.toString(16).padStart(2, '0')}`);
  const message = verifierSignatureHash(tx, i, entry, hashType);
  const publicKey = entry.script.subarray(1, 33);
  let valid: boolean;
  try {
    valid = schnorr.verify(sigScript.subarray(1, 65), message, publicKey);
  } catch {
    valid = false;
  }
  if (!valid) fail('false stack entry at end of script execution');
}

// -------------------------------------------------------------------------------------------------
// Reading the RPC JSON (rpc/core/src/model/tx.rs `RpcTransaction`, human-readable form)

/** Reads submitTransaction's `transaction`; throws a plain Error (a request deserialization error) on a bad shape. */
export function readRpcTransaction(json: unknown): VerifierTransaction {
  const bad = (what: string): never => {
    throw new Error(`request deserialization error: ${what}`);
  };
  const obj = (v: unknown, what: string) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : bad(`${what} is not an object`);
  const int = (v: unknown, what: string, max: bigint): bigint => {
    const n =
      typeof v === 'bigint'
        ? v
        : typeof v === 'number' && Number.isSafeInteger(v)
          ? BigInt(v)
          : bad(`${what} is not an integer`);
    if (n < 0n || n > max) bad(`${what} is out of range`);
    return n;
  };
  const hex = (v: unknown, what: string, length?: number): Uint8Array => {
    if (typeof v !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(v)) bad(`${what} is not hex`);
    const bytes = hexBytes(v as string);
    if (length !== undefined && bytes.length !== length) bad(`${what} is not ${length} bytes`);
    return bytes;
  };
  const U64 = (1n << 64n) - 1n;
  const t = obj(json, 'transaction');
  if (!Array.isArray(t.inputs) || !Array.isArray(t.outputs)) bad('inputs / outputs are not arrays');
  if (t.storageMass === undefined && t.mass === undefined) bad('Either storageMass or mass must be provided');
  if (
    t.storageMass !== undefined &&
    t.mass !== undefined &&
    int(t.storageMass, 'storageMass', U64) !== int(t.mass, 'mass', U64)
  ) {
    bad('storageMass and mass must match when both are provided');
  }
  return {
    version: Number(int(t.version, 'version', 0xffffn)),
    inputs: (t.inputs as unknown[]).map((raw, i) => {
      const input = obj(raw, `input ${i}`);
      const outpoint = obj(input.previousOutpoint, `input ${i} previousOutpoint`);
      return {
        transactionId: Buffer.from(hex(outpoint.transactionId, 'transactionId', 32)).toString('hex'),
        index: Number(int(outpoint.index, 'index', 0xffffffffn)),
        signatureScript: hex(input.signatureScript, 'signatureScript'),
        sequence: int(input.sequence, 'sequence', U64),
        sigOpCount: Number(int(input.sigOpCount, 'sigOpCount', 0xffn)),
        computeBudget: Number(
          input.computeBudget === undefined ? 0n : int(input.computeBudget, 'computeBudget', 0xffffn),
        ),
      };
    }),
    outputs: (t.outputs as unknown[]).map((raw, i) => {
      const output = obj(raw, `output ${i}`);
      const spk = hex(output.scriptPublicKey, 'scriptPublicKey');
      if (spk.length < 2) bad('scriptPublicKey has no version');
      return {
        value: int(output.value, 'value', U64),
        spkVersion: ((spk[0] as number) << 8) | (spk[1] as number),
        script: spk.subarray(2),
      };
    }),
    lockTime: int(t.lockTime, 'lockTime', U64),
    subnetworkId: hex(t.subnetworkId, 'subnetworkId', 20),
    gas: int(t.gas, 'gas', U64),
    payload: hex(t.payload, 'payload'),
  };
}
