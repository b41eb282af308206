/**
 * Kaspa transaction mass and the fees and limits that follow from it, for the pool's version-0
 * pay-to-pubkey transactions. Sources (kaspanet/rusty-kaspa @593399eb unless said otherwise):
 *
 * - compute mass: consensus/core/src/mass/mod.rs `calc_non_contextual_masses`: estimated size × 1
 *   (`mass_per_tx_byte`) + every output's (2 + script length) × 10 (`mass_per_script_pub_key_byte`)
 *   + sig-op counts × 1000 (`GRAMS_PER_SIGOP_COUNT_UNIT`, mass/units.rs); transient mass = size × 4
 *   (`TRANSIENT_BYTE_TO_MASS_FACTOR`, constants.rs);
 * - storage mass (KIP-9): mass/mod.rs `calc_storage_mass` with C = `STORAGE_MASS_PARAMETER` = 10^12;
 * - the standard limit: 100,000 grams in every dimension (wallet/core/src/tx/mass.rs
 *   `MAXIMUM_STANDARD_TRANSACTION_MASS`; the mempool's cap before Toccata in
 *   mining/src/mempool/check_transaction_standard.rs at tag v2.0.1, and its only cap at v1.1.0);
 * - the minimum relay fee: 100,000 sompi per 1000 grams (mining/src/mempool/config.rs
 *   `DEFAULT_MINIMUM_RELAY_TRANSACTION_FEE`) over max(compute mass, transient mass normalized to the
 *   compute scale), check_transaction_standard.rs `check_transaction_standard_in_context`; the block
 *   limits that normalize it are compute 500,000 and transient 1,000,000 (config/params.rs), a factor ½.
 */

export const STORAGE_MASS_PARAMETER = 10n ** 12n;
export const MAXIMUM_STANDARD_TRANSACTION_MASS = 100_000n;
/** Sompi per 1000 grams. */
export const MINIMUM_RELAY_TRANSACTION_FEE = 100_000n;
const MASS_PER_TX_BYTE = 1n;
const MASS_PER_SCRIPT_PUB_KEY_BYTE = 10n;
const MASS_PER_SIG_OP = 1000n;
const TRANSIENT_BYTE_TO_MASS_FACTOR = 4n;
const COMPUTE_BLOCK_LIMIT = 500_000n;
const TRANSIENT_BLOCK_LIMIT = 1_000_000n;

/** The shape mass depends on: signature script and script lengths, sig-op counts, amounts. */
export interface MassInput {
  signatureScriptLength: number;
  sigOpCount: number;
  /** What the input spends (KIP-9's input side). */
  amount: bigint;
  spentScriptLength: number;
}

export interface MassOutput {
  value: bigint;
  scriptLength: number;
}

/** The pay-to-pubkey signature script: OP_DATA_65, the 64-byte signature, the sighash type byte. */
export const P2PK_SIGNATURE_SCRIPT_LENGTH = 66;
/** OP_DATA_32, the x-only key, OP_CHECKSIG (and script hash: OP_BLAKE2B OP_DATA_32 hash OP_EQUAL is 35). */
export const P2PK_SCRIPT_LENGTH = 34;

/** `transaction_estimated_serialized_size` for a native version-0 transaction with no payload. */
export function estimatedSize(inputs: readonly MassInput[], outputs: readonly MassOutput[]): bigint {
  // version 2, input count 8, output count 8, lock time 8, subnetwork 20, gas 8, payload hash 32, payload length 8
  let size = 94n;
  // outpoint 36, script length 8, script, sequence 8
  for (const input of inputs) size += 52n + BigInt(input.signatureScriptLength);
  // value 8, script version 2, script length 8, script
  for (const output of outputs) size += 18n + BigInt(output.scriptLength);
  return size;
}

export function computeMass(inputs: readonly MassInput[], outputs: readonly MassOutput[]): bigint {
  const size = estimatedSize(inputs, outputs);
  const scripts = outputs.reduce((sum, o) => sum + 2n + BigInt(o.scriptLength), 0n);
  const sigOps = inputs.reduce((sum, i) => sum + BigInt(i.sigOpCount), 0n);
  return size * MASS_PER_TX_BYTE + scripts * MASS_PER_SCRIPT_PUB_KEY_BYTE + sigOps * MASS_PER_SIG_OP;
}

export function transientMass(inputs: readonly MassInput[], outputs: readonly MassOutput[]): bigint {
  return estimatedSize(inputs, outputs) * TRANSIENT_BYTE_TO_MASS_FACTOR;
}

/** Transient mass on the compute scale: ceil(transient × compute limit / transient limit). */
export function normalizedTransientMass(inputs: readonly MassInput[], outputs: readonly MassOutput[]): bigint {
  return ceilDiv(transientMass(inputs, outputs) * COMPUTE_BLOCK_LIMIT, TRANSIENT_BLOCK_LIMIT);
}

/** 100-byte storage units a UTXO occupies: (63 fixed bytes + script) / 100, rounded up; 1 for every standard script. */
function plurality(scriptLength: number): bigint {
  return BigInt(Math.ceil((63 + scriptLength) / 100));
}

/**
 * KIP-9 storage mass, max(0, C·(|O|/H(O) − |I|/A(I))), computed in integers as `calc_storage_mass` does
 * (C inside each fraction). When |O| = 1, |I| = 1 or |O| = |I| = 2 the inputs use the harmonic sum too.
 * Every amount must be > 0.
 */
export function storageMass(inputs: readonly MassInput[], outputs: readonly MassOutput[]): bigint {
  let outsPlurality = 0n;
  let harmonicOuts = 0n;
  for (const output of outputs) {
    if (output.value <= 0n) throw new RangeError('storage mass of a zero output');
    const p = plurality(output.scriptLength);
    outsPlurality += p;
    harmonicOuts += (STORAGE_MASS_PARAMETER * p * p) / output.value;
  }
  const insPlurality = inputs.reduce((sum, i) => sum + plurality(i.spentScriptLength), 0n);
  const relaxed = outsPlurality === 1n || insPlurality === 1n || (outsPlurality === 2n && insPlurality === 2n);
  if (relaxed) {
    let harmonicIns = 0n;
    for (const input of inputs) {
      const p = plurality(input.spentScriptLength);
      harmonicIns += (STORAGE_MASS_PARAMETER * p * p) / input.amount;
    }
    return harmonicOuts > harmonicIns ? harmonicOuts - harmonicIns : 0n;
  }
  const sumIns = inputs.reduce((sum, i) => sum + i.amount, 0n);
  let meanIns = sumIns / insPlurality;
  if (meanIns < 1n) meanIns = 1n;
  const arithmeticIns = insPlurality * (STORAGE_MASS_PARAMETER / meanIns);
  return harmonicOuts > arithmeticIns ? harmonicOuts - arithmeticIns : 0n;
}

/** `minimum_required_transaction_relay_fee`: mass × fee / 1000, and never 0. */
export function minimumRelayFee(mass: bigint): bigint {
  const fee = (mass * MINIMUM_RELAY_TRANSACTION_FEE) / 1000n;
  return fee === 0n ? MINIMUM_RELAY_TRANSACTION_FEE : fee;
}

export interface Masses {
  compute: bigint;
  transient: bigint;
  storage: bigint;
  /** What the relay fee floor is charged on: max(compute, normalized transient). */
  feeFloorMass: bigint;
  /** What the fee market prices (kaspad orders its mempool by fee over the largest normalized mass). */
  feeMass: bigint;
}

export function masses(inputs: readonly MassInput[], outputs: readonly MassOutput[]): Masses {
  const compute = computeMass(inputs, outputs);
  const normalizedTransient = normalizedTransientMass(inputs, outputs);
  const storage = storageMass(inputs, outputs);
  const feeFloorMass = compute > normalizedTransient ? compute : normalizedTransient;
  return {
    compute,
    transient: transientMass(inputs, outputs),
    storage,
    feeFloorMass,
    feeMass: feeFloorMass > storage ? feeFloorMass : storage,
  };
}

/** The dimension over the standard limit, in words, or undefined when the transaction is standard. */
export function overStandardLimit(m: Masses): string | undefined {
  const limit = MAXIMUM_STANDARD_TRANSACTION_MASS;
  if (m.compute > limit) return `compute mass ${m.compute} is above the standard limit of ${limit}`;
  if (m.transient > limit) return `transient mass ${m.transient} is above the standard limit of ${limit}`;
  if (m.storage > limit) return `storage mass ${m.storage} (KIP-9) is above the standard limit of ${limit}`;
  return undefined;
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
