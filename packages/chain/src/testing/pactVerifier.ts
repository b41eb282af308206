/**
 * The stand-in chainweb-node's own reading of Pact commands, written apart from the Kadena wallet
 * (which it checks) and proven on a real signed command from kadena-io/pact (pactVerifier.test.ts):
 *
 * - the outer command `{hash, sigs, cmd}`; `hash` must be the unpadded base64url blake2b-256 of the
 *   `cmd` bytes (kadena-io/pact src/Pact/Types/Hash.hs, Command.hs `verifyCommand`);
 * - one signature per signer, each an ed25519 signature of the 32 raw hash bytes by the signer's
 *   `pubKey`, checked here with node:crypto (kadena-io/pact-5 Pact/Core/Command/Types.hs `verifyUserSig`);
 * - the payload (networkId, payload.exec, signers with clist, meta, nonce), its numbers read without a
 *   double (a JSON number in a capability argument or the gas price is a Pact decimal: pact-5
 *   Pact/Core/StableEncoding.hs);
 * - the two Pact forms the pool sends, `(coin.transfer-create "s" "r" (read-keyset "k") d)` and
 *   `(coin.get-balance "a")`, by a small s-expression reader; anything else is refused as the stand-in
 *   cannot run it.
 */
import { createPublicKey, verify } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2.js';

/** Why a command is refused, in chainweb's words (src/Chainweb/Mempool/Mempool.hs `InsertError` Show). */
export class PactRefusal extends Error {
  override readonly name = 'PactRefusal';
}

/** A Pact decimal: mantissa × 10^-scale. */
export interface PactDecimal {
  mantissa: bigint;
  scale: number;
}

/** A number literal of the JSON, kept as its text. */
export class JsonNumberText {
  constructor(readonly text: string) {}
}

export type Json = null | boolean | string | JsonNumberText | Json[] | { [key: string]: Json };

export interface Capability {
  name: string;
  args: Json[];
}

export interface PactSigner {
  pubKey: string;
  /** Empty: the key signs for anything (unscoped). */
  clist: Capability[];
}

export interface PactPayload {
  networkId: string | null;
  code: string;
  data: Json;
  signers: PactSigner[];
  meta: {
    chainId: string;
    sender: string;
    gasLimit: bigint;
    gasPrice: PactDecimal;
    ttl: bigint;
    creationTime: bigint;
  };
  nonce: string;
}

export interface VerifiedCommand {
  hash: string;
  cmd: string;
  payload: PactPayload;
}

// ---------------------------------------------------------------------------------------------------
// JSON, numbers kept as text

/** Parses JSON text keeping every number literal as its text (JsonNumberText). */
export function readJsonExact(text: string): Json {
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at ${at}`);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
  };
  const value = (): Json => {
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      const out: Record<string, Json> = {};
      space();
      if (text[at] === '}') {
        at++;
        return out;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail('key expected');
        const key = string();
        space();
        if (text[at++] !== ':') fail('":" expected');
        out[key] = value();
        space();
        const next = text[at++];
        if (next === '}') return out;
        if (next !== ',') fail('"," or "}" expected');
      }
    }
    if (c === '[') {
      at++;
      const out: Json[] = [];
      space();
      if (text[at] === ']') {
        at++;
        return out;
      }
      for (;;) {
        out.push(value());
        space();
        const next = text[at++];
        if (next === ']') return out;
        if (next !== ',') fail('"," or "]" expected');
      }
    }
    if (c === '"') return string();
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (number) {
      at += number[0].length;
      return new JsonNumberText(number[0]);
    }
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return result;
      }
    }
    return fail('value expected');
  };
  const string = (): string => {
    const end = /^"(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(text.slice(at));
    if (!end) return fail('bad string');
    at += end[0].length;
    // JSON.parse refuses the raw control characters JSON forbids inside a string.
    return JSON.parse(end[0]) as string;
  };
  const result = value();
  space();
  if (at !== text.length) fail('trailing text');
  return result;
}

/** A JSON number (or Pact's `{"decimal": "…"}`) as a Pact decimal; integers are decimals too, as in Pact 5 capability args. */
export function jsonDecimal(value: Json): PactDecimal | undefined {
  let text: string | undefined;
  if (value instanceof JsonNumberText) text = value.text;
  else if (isObject(value) && typeof value.decimal === 'string') text = value.decimal;
  return text === undefined ? undefined : parseDecimalText(text);
}

export function parseDecimalText(text: string): PactDecimal | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const fraction = m[3] ?? '';
  let mantissa = BigInt(`${m[2]}${fraction}`);
  let scale = fraction.length - Number(m[4] ?? 0);
  if (scale < 0) {
    mantissa *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { mantissa: m[1] === '-' ? -mantissa : mantissa, scale };
}

/** a − b compared: <0, 0, >0. */
export function compareDecimals(a: PactDecimal, b: PactDecimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.mantissa * 10n ** BigInt(scale - a.scale);
  const y = b.mantissa * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The decimal in units of 10^-places, or undefined when it has finer digits than that. */
export function decimalInUnits(d: PactDecimal, places: number): bigint | undefined {
  if (d.scale <= places) return d.mantissa * 10n ** BigInt(places - d.scale);
  const divisor = 10n ** BigInt(d.scale - places);
  return d.mantissa % divisor === 0n ? d.mantissa / divisor : undefined;
}

export function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumberText);
}

// ---------------------------------------------------------------------------------------------------
// The command: hash, signatures, payload

/** DER prefix of an ed25519 SubjectPublicKeyInfo (RFC 8410, section 4): the raw 32 key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function ed25519Verifies(publicKeyHex: string, message: Uint8Array, signatureHex: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, message, key, Buffer.from(signatureHex, 'hex'));
}

export function blake2b256Base64Url(bytes: Uint8Array): string {
  return Buffer.from(blake2b(bytes, { dkLen: 32 })).toString('base64url');
}

/**
 * Checks a submitted command's hash and every signature (unless `signatures: false`, /local's
 * signatureVerification=false) and reads its payload. Throws PactRefusal
 * with chainweb's message (Mempool.hs InsertError, Pact/Types.hs displayAssertValidateSigsError).
 */
export function verifyPactCommand(command: Json, options: { signatures?: boolean } = {}): VerifiedCommand {
  if (!isObject(command) || typeof command.hash !== 'string' || typeof command.cmd !== 'string') {
    throw new PactRefusal('reading JSON for transaction failed: Error in $: key "hash" and "cmd" expected');
  }
  const sigs = command.sigs;
  if (!Array.isArray(sigs))
    throw new PactRefusal('reading JSON for transaction failed: Error in $: key "sigs" not found');
  const { hash, cmd } = command;
  if (blake2b256Base64Url(Buffer.from(cmd, 'utf8')) !== hash) throw new PactRefusal('Invalid transaction hash');
  const payload = readPayload(cmd);
  if (options.signatures === false) return { hash, cmd, payload };
  if (sigs.length !== payload.signers.length) {
    throw new PactRefusal(
      `Invalid transaction sigs: The number of signers and signatures do not match. Number of signers: ${payload.signers.length}. Number of signatures: ${sigs.length}.`,
    );
  }
  const message = Buffer.from(hash, 'base64url');
  payload.signers.forEach((signer, i) => {
    const sig = sigs[i];
    const text = isObject(sig) && typeof sig.sig === 'string' ? sig.sig : '';
    if (!ed25519Verifies(signer.pubKey, message, text)) {
      throw new PactRefusal(
        `Invalid transaction sigs: The signature at position ${i} is invalid: invalid ed25519 signature.`,
      );
    }
  });
  return { hash, cmd, payload };
}

function readPayload(cmd: string): PactPayload {
  let json: Json;
  try {
    json = readJsonExact(cmd);
  } catch (error) {
    throw new PactRefusal(`reading JSON for transaction failed: ${(error as Error).message}`);
  }
  const bad = (what: string): never => {
    throw new PactRefusal(`reading JSON for transaction failed: Error in $: ${what}`);
  };
  if (!isObject(json)) return bad('the payload is not an object');
  const exec = isObject(json.payload) ? json.payload.exec : undefined;
  if (!isObject(exec) || typeof exec.code !== 'string')
    return bad('payload.exec.code expected (the stand-in runs exec only)');
  if (!Array.isArray(json.signers)) return bad('signers expected');
  const signers = json.signers.map((s) => {
    if (!isObject(s) || typeof s.pubKey !== 'string') return bad('signer.pubKey expected');
    if (s.scheme !== undefined && s.scheme !== null && s.scheme !== 'ED25519') return bad('only ED25519 signers');
    const clist = s.clist ?? [];
    if (!Array.isArray(clist)) return bad('clist is a list');
    return {
      pubKey: s.pubKey,
      clist: clist.map((c) => {
        if (!isObject(c) || typeof c.name !== 'string' || !Array.isArray(c.args)) return bad('capability {name, args}');
        return { name: c.name, args: c.args };
      }),
    };
  });
  const meta = json.meta;
  if (!isObject(meta)) return bad('meta expected');
  const integer = (v: Json | undefined, what: string): bigint =>
    v instanceof JsonNumberText && /^\d+$/.test(v.text) ? BigInt(v.text) : bad(`${what} is not an integer`);
  const gasPrice =
    typeof meta.gasPrice === 'string' ? parseDecimalText(meta.gasPrice) : jsonDecimal(meta.gasPrice ?? null);
  if (gasPrice === undefined) return bad('meta.gasPrice is not a decimal');
  if (typeof meta.chainId !== 'string' || typeof meta.sender !== 'string') return bad('meta.chainId, meta.sender');
  if (typeof json.nonce !== 'string') return bad('nonce expected');
  const networkId = json.networkId ?? null;
  if (networkId !== null && typeof networkId !== 'string') return bad('networkId');
  return {
    networkId,
    code: exec.code,
    data: exec.data ?? null,
    signers,
    meta: {
      chainId: meta.chainId,
      sender: meta.sender,
      gasLimit: integer(meta.gasLimit, 'meta.gasLimit'),
      gasPrice,
      ttl: integer(meta.ttl, 'meta.ttl'),
      creationTime: integer(meta.creationTime, 'meta.creationTime'),
    },
    nonce: json.nonce,
  };
}

// ---------------------------------------------------------------------------------------------------
// The Pact forms the stand-in runs

export type CoinCall =
  | { fn: 'transfer-create'; sender: string; receiver: string; keysetName: string; amount: PactDecimal }
  | { fn: 'get-balance'; account: string };

type Sexp = { list: Sexp[] } | { str: string } | { sym: string } | { dec: PactDecimal } | { int: bigint };

/** Reads the one Pact form of `code`; refuses what the stand-in cannot run with a Pact-style error. */
export function readCoinCall(code: string): CoinCall {
  const forms = readSexps(code);
  const refuse = (): never => {
    throw new PactRefusal(
      `Pact parse error: the stand-in runs only coin.transfer-create and coin.get-balance: ${code}`,
    );
  };
  if (forms.length !== 1) return refuse();
  const form = forms[0] as Sexp;
  if (!('list' in form) || form.list.length === 0) return refuse();
  const [head, ...args] = form.list;
  if (!head || !('sym' in head)) return refuse();
  if (head.sym === 'coin.get-balance' && args.length === 1 && args[0] && 'str' in args[0]) {
    return { fn: 'get-balance', account: args[0].str };
  }
  if (head.sym === 'coin.transfer-create' && args.length === 4) {
    const [s, r, g, a] = args as [Sexp, Sexp, Sexp, Sexp];
    const keyset = 'list' in g ? g.list : [];
    const [readKs, name] = keyset;
    if (
      'str' in s &&
      'str' in r &&
      keyset.length === 2 &&
      readKs &&
      'sym' in readKs &&
      readKs.sym === 'read-keyset' &&
      name &&
      'str' in name &&
      'dec' in a
    ) {
      return { fn: 'transfer-create', sender: s.str, receiver: r.str, keysetName: name.str, amount: a.dec };
    }
  }
  return refuse();
}

function readSexps(code: string): Sexp[] {
  const tokens = code.match(/\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+/g) ?? [];
  let at = 0;
  const parseError = (what: string): never => {
    throw new PactRefusal(`Pact parse error: ${what}`);
  };
  const one = (): Sexp => {
    const token = tokens[at++];
    if (token === undefined) return parseError('unexpected end of input');
    if (token === '(') {
      const list: Sexp[] = [];
      while (tokens[at] !== ')') {
        if (at >= tokens.length) return parseError('unclosed (');
        list.push(one());
      }
      at++;
      return { list };
    }
    if (token === ')') return parseError('unexpected )');
    if (token.startsWith('"')) return { str: JSON.parse(token) as string };
    if (/^-?\d+\.\d+$/.test(token)) return { dec: parseDecimalText(token) as PactDecimal };
    if (/^-?\d+$/.test(token)) return { int: BigInt(token) };
    return { sym: token };
  };
  const forms: Sexp[] = [];
  while (at < tokens.length) forms.push(one());
  return forms;
}
