import { randomUUID } from 'node:crypto';

/**
 * Exact coin amounts at the JSON-RPC boundary.
 *
 * Bitcoin-family wallets speak amounts as JSON numbers in whole coins (`0.12345678`), but JSON.stringify
 * and JSON.parse go through JavaScript doubles, which cannot hold most such decimals exactly. So:
 * - going out, an amount is built as decimal text from its bigint and written into the request body as a
 *   bare number literal, digit for digit (`jsonDecimal` + `exactDecimalFetch`);
 * - coming back, every fractional number literal of a reply is turned into a JSON string before the
 *   reply is parsed (`exactDecimalFetch`), so amounts reach `rpcAmountToUnits` as the daemon's own text
 *   and convert exactly. A plain number is still accepted (a caller that did not use the wrapper) and is
 *   rounded to the nearest unit only where doubles still tell neighbouring units apart.
 */

const MAX_DECIMALS = 18;

/** JSON's number grammar; we only ever read and write what a daemon could legally send. */
const JSON_NUMBER = /^(-)?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_DECIMALS}: ${decimals}`);
  }
}

/** Smallest units as whole coins with exactly `decimals` digits: (12345678n, 8) → "0.12345678". */
export function unitsToDecimal(units: bigint, decimals: number): string {
  checkDecimals(decimals);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const text = decimals === 0 ? whole : `${whole}.${digits.slice(digits.length - decimals)}`;
  return negative ? `-${text}` : text;
}

/**
 * Whole coins written as a JSON number ("0.12345678", "-1750e-8") as smallest units, exactly. Refuses
 * text with a non-zero digit beyond `decimals`: that is not an amount of this coin.
 */
export function decimalToUnits(text: string, decimals: number): bigint {
  checkDecimals(decimals);
  const m = JSON_NUMBER.exec(text);
  if (!m) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
  const fraction = m[3] ?? '';
  // value = digits × 10^(exponent − fraction length); units = value × 10^decimals
  const shift = decimals + Number(m[4] ?? 0) - fraction.length;
  let units = BigInt(`${m[2]}${fraction}`);
  if (shift >= 0) {
    units *= 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    if (units % divisor !== 0n) throw new RangeError(`${text} has more than ${decimals} decimals`);
    units /= divisor;
  }
  return m[1] === '-' ? -units : units;
}

/**
 * A double that a daemon printed from an amount with at most `decimals` digits, as smallest units.
 * toFixed rounds the double's exact value to the nearest unit; that is the amount the daemon printed as
 * long as a double's spacing stays below one unit, i.e. |value| < 2^52 / 10^decimals (45 035 996 coins
 * at 8 decimals); beyond that two amounts can share a double, so we refuse. A double that does not
 * parse back from the rounded text was never such an amount (too many decimals), and is refused too.
 */
export function numberToUnits(value: number, decimals: number): bigint {
  checkDecimals(decimals);
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  if (Math.abs(value) >= 2 ** 52 / 10 ** decimals) {
    throw new RangeError(`${value} is too large to read exactly from a double at ${decimals} decimals`);
  }
  const text = value.toFixed(decimals);
  if (Number(text) !== value) throw new RangeError(`${value} has more than ${decimals} decimals`);
  return decimalToUnits(text, decimals);
}

/** An amount field of a daemon reply, as smallest units: its exact text, or a double (see numberToUnits). */
export function rpcAmountToUnits(value: unknown, decimals: number): bigint {
  if (typeof value === 'string') return decimalToUnits(value, decimals);
  if (typeof value === 'number') return numberToUnits(value, decimals);
  throw new RangeError(`not an amount: ${JSON.stringify(value)}`);
}

/**
 * Marks a decimal inside JSON.stringify output so exactDecimalFetch can unwrap it. The NUL character and
 * a per-process random id keep any real string (an address, a comment) from ever looking like a mark.
 */
const MARK = `\u0000exact-decimal:${randomUUID()}:`;
const MARKED_LITERAL = new RegExp(`"${escapeRegExp(JSON.stringify(MARK).slice(1, -1))}(-?\\d+(?:\\.\\d+)?)"`, 'g');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A decimal that a JSON-RPC request carries as a bare number literal, digit for digit. JSON.stringify
 * alone writes it as a marked string; exactDecimalFetch (or writeDecimalLiterals) turns the mark into
 * the literal. Without the wrapper a daemon sees an odd string and refuses the amount — never a wrong one.
 */
export class JsonDecimal {
  constructor(readonly text: string) {
    if (!/^-?\d+(?:\.\d+)?$/.test(text)) throw new RangeError(`not a plain decimal: ${JSON.stringify(text)}`);
  }

  toJSON(): string {
    return `${MARK}${this.text}`;
  }
}

/** Smallest units as a JSON number literal in whole coins: (12345678n, 8) → 0.12345678 in the body. */
export function jsonDecimal(units: bigint, decimals: number): JsonDecimal {
  return new JsonDecimal(unitsToDecimal(units, decimals));
}

/** JSON text with JsonDecimal marks replaced by their number literals. */
export function writeDecimalLiterals(json: string): string {
  return json.replace(MARKED_LITERAL, '$1');
}

/**
 * JSON text with every number literal that has a fraction or an exponent turned into a string, so
 * JSON.parse keeps its exact text. Integers (ids, error codes, confirmations, heights) stay numbers.
 * Text that is not a JSON object or array is returned unchanged.
 */
export function quoteFractionalNumbers(json: string): string {
  const first = json.trimStart()[0];
  if (first !== '{' && first !== '[') return json;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < json.length) {
    const c = json[i] as string;
    if (c === '"') {
      i = endOfString(json, i);
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < json.length && /[\d.eE+-]/.test(json[j] as string)) j++;
      const token = json.slice(i, j);
      if (/[.eE]/.test(token)) {
        out += `${json.slice(copied, i)}"${token}"`;
        copied = j;
      }
      i = j;
    } else {
      i++;
    }
  }
  return out + json.slice(copied);
}

/** Index just past the string literal that opens at `start`. */
function endOfString(json: string, start: number): number {
  let i = start + 1;
  while (i < json.length) {
    const c = json[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return i;
}

/** HTTP statuses whose responses have no body (a Response cannot be built with one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * Wraps fetch for a JSON-RPC client (RpcClient's `fetch` option) so amounts cross it exactly: JsonDecimal
 * marks in the request body become number literals, and fractional numbers in the reply become strings
 * (see quoteFractionalNumbers). Everything else — errors, timeouts, status codes — passes through, so
 * the client's own error handling applies unchanged.
 */
export function exactDecimalFetch(inner: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? writeDecimalLiterals(init.body) : init?.body;
    const response = await inner(input, init === undefined ? undefined : { ...init, body });
    if (NULL_BODY_STATUSES.has(response.status)) return response;
    const text = await response.text();
    const headers = new Headers(response.headers);
    // The new body is already decoded and may differ in length from the original.
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(quoteFractionalNumbers(text), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
