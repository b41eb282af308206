import { ed25519 } from '@noble/curves/ed25519.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { JsonDecimal, writeDecimalLiterals } from '../amounts.js';
import { pactDecimal } from './pactDecimal.js';

/**
 * Pact commands as chainweb-node takes them (kadena-io/pact @ebad60e2 src/Pact/Types/Command.hs,
 * RPC.hs, ChainMeta.hs; kadena-io/pact-5 pact-request-api/Pact/Core/Command/Types.hs):
 *
 *   { "hash": <base64url blake2b-256 of cmd>, "sigs": [{ "sig": <hex ed25519 over the 32 hash bytes> }],
 *     "cmd": <the payload JSON, as a string> }
 *
 * The hash covers the exact bytes of `cmd`, so the command is built once as text and never re-encoded;
 * it is also the request key that /poll answers by.
 */
export interface PactCommand {
  hash: string;
  sigs: { sig: string }[];
  cmd: string;
}

export interface CommandMeta {
  /** chainweb version name: mainnet01, testnet04, development (the /chainweb/0.0/{network} segment). */
  networkId: string;
  /** The chain it runs on, "0".."19". */
  chainId: string;
  /** Who pays gas (the pool's account). */
  sender: string;
  gasLimit: number;
  /** KDA units (10^-12) per unit of gas. */
  gasPrice: bigint;
  /** Unix seconds. */
  creationTime: number;
  ttlSeconds: number;
  /** Makes the hash unique; any string. */
  nonce: string;
}

export interface TransferCreate extends CommandMeta {
  /** ed25519 public key of the pool (hex); the sender is `k:` + it. */
  senderPublicKey: string;
  /** A `k:` account; its guard is the single key after `k:`. */
  receiver: string;
  /** KDA units, > 0. */
  amount: bigint;
}

/** Unpadded base64url blake2b-256 of the cmd text (Pact Hash.hs: the request key). */
export function pactHash(cmd: string): string {
  return Buffer.from(blake2b(Buffer.from(cmd, 'utf8'), { dkLen: 32 })).toString('base64url');
}

/** The public key (hex) of an ed25519 private key (32-byte seed, hex). */
export function publicKeyOf(privateKeyHex: string): string {
  return Buffer.from(ed25519.getPublicKey(seed(privateKeyHex))).toString('hex');
}

/** The command with one signature per key, in signer order: ed25519 over the raw 32 hash bytes (Command.hs signHash). */
export function signCommand(cmd: string, privateKeysHex: readonly string[]): PactCommand {
  const hash = pactHash(cmd);
  const message = Buffer.from(hash, 'base64url');
  const sigs = privateKeysHex.map((key) => ({ sig: Buffer.from(ed25519.sign(message, seed(key))).toString('hex') }));
  return { hash, sigs, cmd };
}

/**
 * The payload of one `coin.transfer-create` from `k:<senderPublicKey>` to `receiver`. Its signer (the
 * pool's key) is scoped to two capabilities, so the signature can be used for nothing else:
 * `coin.GAS` (buy-gas debits the sender under it) and `coin.TRANSFER sender receiver amount`, managed
 * by amount (coin.pact `TRANSFER-mgr`: at most `amount` may move under it). The receiver's keyset is
 * passed in `data` and read by `(read-keyset "ks")`; for a `k:` account it must be exactly its key
 * (coin.pact `enforce-reserved`), which is why only `k:` accounts are paid.
 */
export function transferCreateCmd(input: TransferCreate): string {
  if (input.amount <= 0n) throw new RangeError('a transfer amount must be positive');
  const sender = `k:${input.senderPublicKey}`;
  const amount = pactDecimal(input.amount);
  const code = `(coin.transfer-create ${pactString(sender)} ${pactString(input.receiver)} (read-keyset "ks") ${amount})`;
  const receiverKey = input.receiver.slice(2);
  return payloadText(input, code, { ks: { keys: [receiverKey], pred: 'keys-all' } }, [
    {
      pubKey: input.senderPublicKey,
      clist: [
        // A JSON number in a clist argument is a Pact decimal (pact-5 StableEncoding.hs, Literal parseJSON).
        { name: 'coin.TRANSFER', args: [sender, input.receiver, new JsonDecimal(amount)] },
        { name: 'coin.GAS', args: [] },
      ],
    },
  ]);
}

/** A read-only command for /local (no signers, so no signature is needed). */
export function localCmd(meta: CommandMeta, code: string): string {
  return payloadText(meta, code, {}, []);
}

/** A Pact string literal; the pool only ever writes account names of latin-1 letters, digits and ':'. */
export function pactString(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text) || /["\\]/.test(text)) throw new RangeError(`not a plain Pact string: ${text}`);
  return `"${text}"`;
}

interface Signer {
  pubKey: string;
  clist: { name: string; args: unknown[] }[];
}

function payloadText(meta: CommandMeta, code: string, data: object, signers: Signer[]): string {
  if (!Number.isSafeInteger(meta.gasLimit) || meta.gasLimit <= 0)
    throw new RangeError('gasLimit must be a positive integer');
  if (meta.gasPrice <= 0n) throw new RangeError('gasPrice must be positive');
  const payload = {
    networkId: meta.networkId,
    payload: { exec: { data, code } },
    signers,
    meta: {
      creationTime: meta.creationTime,
      ttl: meta.ttlSeconds,
      gasLimit: meta.gasLimit,
      chainId: meta.chainId,
      // Pact reads a JSON number or string as the gas price (pact-5 StableEncoding.hs, GasPrice).
      gasPrice: new JsonDecimal(pactDecimal(meta.gasPrice)),
      sender: meta.sender,
    },
    nonce: meta.nonce,
  };
  return writeDecimalLiterals(JSON.stringify(payload));
}

function seed(privateKeyHex: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) throw new TypeError('an ed25519 private key is 32 bytes of hex');
  return Buffer.from(privateKeyHex, 'hex');
}
