/**
 * Kaspa's pay scripts and coinbase payload (kaspanet/rusty-kaspa crypto/txscript/src/standard.rs
 * `pay_to_address_script`, consensus/src/processes/coinbase.rs `serialize_coinbase_payload`).
 *
 * A block's coinbase does not pay that block's miner: it pays the blue blocks it merges (one output
 * each, to the script each wrote in its own payload) and, in one last output, the rewards of the red
 * blocks it merges to its own miner. What the block itself will earn is written in its payload (its
 * subsidy, beside the script it is to be paid to) and paid later, if the block is blue, by the chain
 * block that merges it.
 */
import { decodeKaspaAddress } from '../addresses/kaspa.js';
import { bytesToHex, hexToBytes } from '../bitcoin/bytes.js';

const OP_DATA_32 = 0x20;
const OP_DATA_33 = 0x21;
const OP_CHECKSIG_ECDSA = 0xab;
const OP_CHECKSIG = 0xac;
const OP_BLAKE2B = 0xaa;
const OP_EQUAL = 0x87;

/** Kaspa's script public key for an address, as RPC JSON writes it: version (u16 big-endian) ‖ script, hex. */
export function payToAddressScript(address: string): string {
  const { version, payload } = decodeKaspaAddress(address);
  let script: number[];
  if (version === 0) script = [OP_DATA_32, ...payload, OP_CHECKSIG];
  else if (version === 1) script = [OP_DATA_33, ...payload, OP_CHECKSIG_ECDSA];
  else script = [OP_BLAKE2B, OP_DATA_32, ...payload, OP_EQUAL];
  // Every standard script class is version 0.
  return `0000${bytesToHex(Uint8Array.from(script))}`;
}

export interface CoinbasePayload {
  blueScore: bigint;
  /** The block's own subsidy in sompi: what it earns (with its transactions' fees) if it is blue. */
  subsidy: bigint;
  /** Where that reward goes: version (u16 big-endian) ‖ script, hex, as payToAddressScript writes it. */
  scriptPublicKey: string;
  /** The rest: kaspad's version, '/', then the extraData the pool asked for. */
  extraData: Uint8Array;
}

/** Reads a coinbase payload (blue score u64 LE, subsidy u64 LE, script version u16 LE, script length u8, script, extra data). */
export function readCoinbasePayload(payloadHex: string): CoinbasePayload {
  const bytes = hexToBytes(payloadHex, 'coinbase payload');
  if (bytes.length < 19) throw new RangeError(`coinbase payload of ${bytes.length} bytes is shorter than 19`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const scriptVersion = view.getUint16(16, true);
  const scriptLength = bytes[18] as number;
  if (bytes.length < 19 + scriptLength) throw new RangeError('coinbase payload is shorter than its script');
  const version = new Uint8Array(2);
  new DataView(version.buffer).setUint16(0, scriptVersion, false);
  return {
    blueScore: view.getBigUint64(0, true),
    subsidy: view.getBigUint64(8, true),
    scriptPublicKey: bytesToHex(version) + bytesToHex(bytes.subarray(19, 19 + scriptLength)),
    extraData: Uint8Array.from(bytes.subarray(19 + scriptLength)),
  };
}

/** Writes a coinbase payload (the stand-in node builds its templates with it). */
export function writeCoinbasePayload(payload: CoinbasePayload): string {
  const script = hexToBytes(payload.scriptPublicKey, 'script public key');
  if (script.length < 2 || script.length - 2 > 255) throw new RangeError('script public key of a bad length');
  const out = new Uint8Array(19 + script.length - 2 + payload.extraData.length);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, payload.blueScore, true);
  view.setBigUint64(8, payload.subsidy, true);
  view.setUint16(16, new DataView(script.buffer, script.byteOffset).getUint16(0, false), true);
  out[18] = script.length - 2;
  out.set(script.subarray(2), 19);
  out.set(payload.extraData, 19 + script.length - 2);
  return bytesToHex(out);
}
