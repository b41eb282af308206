import {
  checkTicker,
  divideDecimals,
  type Fiat,
  PriceFeedError,
  type PriceQuote,
  type PriceSnapshot,
  type PriceSource,
  positiveDecimal,
  SUPPORTED_FIAT,
  USD_QUOTE,
} from './priceSource.js';

export const DEFAULT_PRICE_TIMEOUT_MS = 10_000;
/** A simple-price body for a dozen coins is about 1 kB; anything near this is not a price list. */
const MAX_BODY_CHARS = 1_000_000;
/** Significant digits of rates derived by division (EUR); the inputs themselves are kept as sent. */
const DERIVED_RATE_DIGITS = 12;

export interface HttpPriceSourceOptions {
  /**
   * The "simple price" endpoint, e.g. `https://api.coingecko.com/api/v3/simple/price`, a
   * CoinGecko-compatible proxy or the operator's own service. It may carry its own query (an API key);
   * `ids` and `vs_currencies` are appended.
   */
  url: string;
  /** Ticker → the provider's coin id, e.g. `{ BTC: 'bitcoin', CKB: 'nervos-network' }`. */
  mapping: Readonly<Record<string, string>>;
  /** Fiat rates to derive besides USD (USD per 1 EUR, from the reference coin's usd and eur prices). */
  fiat?: readonly Fiat[];
  /** Extra request headers, e.g. `{ 'x-cg-demo-api-key': '…' }`. Never logged or put in errors. */
  headers?: Readonly<Record<string, string>>;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  /** Covers the whole exchange, headers and body. */
  timeoutMs?: number;
  now?: () => Date;
  /**
   * By default a ticker missing from the response fails the whole fetch, naming the tickers: a silent
   * partial snapshot would leave a coin on its previous (stale) price without anyone noticing. Set this
   * only when a provider is known to drop thinly traded coins and the caller handles absent tickers.
   * A response with no mapped price at all still fails.
   */
  allowMissing?: boolean;
  /** Source name stamped on snapshots; defaults to the endpoint's host. */
  name?: string;
}

/**
 * Prices from a CoinGecko-style "simple price" API:
 * `GET {url}?ids=bitcoin,litecoin&vs_currencies=usd,eur` → `{"bitcoin":{"usd":64123.5,"eur":59000.1},…}`.
 * The body is parsed by a small JSON reader that keeps every number as the literal text the server
 * sent (JSON.parse would turn 0.000012345678901 into the nearest double), so prices are exact.
 */
export class HttpPriceSource implements PriceSource {
  readonly name: string;
  readonly #url: URL;
  readonly #endpoint: string;
  readonly #mapping: readonly (readonly [ticker: string, id: string])[];
  readonly #fiat: readonly Fiat[];
  readonly #headers: Readonly<Record<string, string>>;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #now: () => Date;
  readonly #allowMissing: boolean;

  constructor(options: HttpPriceSourceOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new PriceFeedError('price feed url is not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new PriceFeedError(`price feed url must be http(s), not ${url.protocol}`);
    }
    // Errors name the endpoint without query or credentials: the query may hold an API key.
    this.#endpoint = `${url.origin}${url.pathname}`;
    this.#url = url;
    this.name = options.name ?? url.host;

    const mapping = Object.entries(options.mapping);
    if (mapping.length === 0) throw new PriceFeedError('price feed mapping is empty');
    for (const [ticker, id] of mapping) {
      checkTicker(ticker, 'price feed mapping');
      // Commas would split one id into two in the `ids` list.
      if (!/^[A-Za-z0-9._-]+$/.test(id)) {
        throw new PriceFeedError(
          `price feed mapping: id of ${ticker} is not a provider coin id: ${JSON.stringify(id)}`,
        );
      }
    }
    this.#mapping = mapping;

    const fiat = [...new Set(options.fiat ?? [])];
    for (const f of fiat) {
      if (!(SUPPORTED_FIAT as readonly string[]).includes(f)) {
        throw new PriceFeedError(`price feed fiat ${JSON.stringify(f)} is not supported`);
      }
    }
    this.#fiat = fiat;

    const timeoutMs = options.timeoutMs ?? DEFAULT_PRICE_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new PriceFeedError('price feed timeout must be > 0 ms');
    this.#timeoutMs = timeoutMs;
    this.#headers = { ...options.headers };
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#now = options.now ?? (() => new Date());
    this.#allowMissing = options.allowMissing ?? false;
  }

  /**
   * The request URL: the configured one plus `ids` (deduplicated, in mapping order) and `vs_currencies`.
   * Private because it may carry the operator's API key.
   */
  #requestUrl(): string {
    const ids = [...new Set(this.#mapping.map(([, id]) => id))];
    const currencies = ['usd', ...this.#fiat.map((f) => f.toLowerCase())];
    // Built by hand rather than with URLSearchParams, which would send the commas as %2C.
    const query = `ids=${ids.map(encodeURIComponent).join(',')}&vs_currencies=${currencies.join(',')}`;
    const base = this.#url.href.replace(/#.*$/, '').replace(/\?$/, '');
    return `${base}${this.#url.search ? '&' : '?'}${query}`;
  }

  async fetch(): Promise<PriceSnapshot> {
    const body = await this.#get();
    const takenAt = this.#now();
    let root: JsonValue;
    try {
      root = parseExactJson(body);
    } catch (error) {
      throw new PriceFeedError(`${this.#endpoint} answered with a body that is not JSON: ${(error as Error).message}`);
    }
    if (!(root instanceof Map)) throw new PriceFeedError(`${this.#endpoint} answered with JSON that is not an object`);
    return { source: this.name, takenAt, quotes: this.#quotes(root) };
  }

  async #get(): Promise<string> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#timeoutMs);
    try {
      const response = await this.#fetch(this.#requestUrl(), {
        headers: { accept: 'application/json', ...this.#headers },
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.status !== 200) {
        throw new PriceFeedError(
          `${this.#endpoint} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: ${snippet(text)}`,
        );
      }
      if (text.length > MAX_BODY_CHARS) throw new PriceFeedError(`${this.#endpoint} answered with an oversized body`);
      return text;
    } catch (error) {
      if (error instanceof PriceFeedError) throw error;
      if (controller.signal.aborted) {
        throw new PriceFeedError(`${this.#endpoint} did not answer within ${this.#timeoutMs} ms`, { cause: error });
      }
      throw new PriceFeedError(`${this.#endpoint} could not be reached: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  #quotes(root: Map<string, JsonValue>): PriceQuote[] {
    const quotes: PriceQuote[] = [];
    const missing: string[] = [];
    /** id → its entry, for the fiat rate. */
    const entries = new Map<string, Map<string, JsonValue>>();
    for (const [ticker, id] of this.#mapping) {
      const entry = root.get(id);
      if (entry === undefined || entry === null) {
        missing.push(`${ticker} (${id})`);
        continue;
      }
      if (!(entry instanceof Map)) throw new PriceFeedError(`${this.#endpoint}: entry of ${id} is not an object`);
      const usd = entry.get('usd');
      if (usd === undefined || usd === null) {
        missing.push(`${ticker} (${id})`);
        continue;
      }
      quotes.push({ ticker, usd: price(usd, `usd price of ${ticker} (${id})`) });
      entries.set(id, entry);
    }
    if (quotes.length === 0) {
      throw new PriceFeedError(
        `${this.#endpoint} returned no price for any mapped coin: missing ${missing.join(', ')}`,
      );
    }
    if (missing.length > 0 && !this.#allowMissing) {
      throw new PriceFeedError(`${this.#endpoint} returned no price for ${missing.join(', ')}`);
    }
    quotes.push({ ...USD_QUOTE });
    for (const fiat of this.#fiat) quotes.push({ ticker: fiat, usd: this.#fiatRate(fiat, entries) });
    return quotes;
  }

  /**
   * USD per 1 unit of fiat = (coin in USD) ÷ (coin in fiat), from one reference coin: BTC when mapped
   * (the deepest markets, so the two quotes are the most consistent), otherwise the first mapped coin
   * that has a price.
   */
  #fiatRate(fiat: Fiat, entries: ReadonlyMap<string, Map<string, JsonValue>>): string {
    const btc = this.#mapping.find(([ticker, id]) => ticker === 'BTC' && entries.has(id));
    const [ticker, id] = btc ?? this.#mapping.find(([, id]) => entries.has(id)) ?? [];
    const entry = id === undefined ? undefined : entries.get(id);
    const key = fiat.toLowerCase();
    const value = entry?.get(key);
    if (entry === undefined || value === undefined || value === null) {
      throw new PriceFeedError(`${this.#endpoint} returned no ${key} price of ${ticker} (${id}) to derive ${fiat}`);
    }
    const inFiat = price(value, `${key} price of ${ticker} (${id})`);
    const inUsd = price(entry.get('usd') as JsonValue, `usd price of ${ticker} (${id})`);
    return divideDecimals(inUsd, inFiat, DERIVED_RATE_DIGITS);
  }
}

/**
 * A JSON number (kept as its literal text) or a string holding a plain decimal — an operator's own
 * service may send prices as strings precisely to keep them exact — as a positive plain decimal.
 */
function price(value: JsonValue, what: string): string {
  if (value instanceof JsonNumber) return positiveDecimal(value.text, what);
  if (typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value)) return positiveDecimal(value, what);
  throw new PriceFeedError(`${what} is not a number: ${describeJson(value)}`);
}

function describeJson(value: JsonValue): string {
  if (value instanceof Map) return 'an object';
  if (Array.isArray(value)) return 'an array';
  return JSON.stringify(value);
}

/** The start of an error body, printable characters only, for the error message. */
function snippet(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]+/g, ' ').trim();
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean || '(empty body)';
}

// ---------------------------------------------------------------------------------------------
// Exact JSON reading. Node 20's JSON.parse reviver has no `context.source` (that arrived with V8 11.4+
// behind a flag, Node 21+), so the number text is lost there; this reader keeps it.

/** A JSON number as the server wrote it, e.g. "64123.5" or "1.2345e-05". */
export class JsonNumber {
  constructor(readonly text: string) {}
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | Map<string, JsonValue>;

const MAX_DEPTH = 32;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/**
 * Parses RFC 8259 JSON. Objects become Maps (no prototype keys to trip over), numbers JsonNumber,
 * and a key repeated in one object is an error rather than last-one-wins: a price list that names
 * `bitcoin` twice is not one to trust.
 */
export function parseExactJson(text: string): JsonValue {
  let i = 0;

  function fail(what: string): never {
    throw new SyntaxError(`${what} at position ${i}`);
  }

  function skipSpace(): void {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  }

  function readString(): string {
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charAt(i);
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text.charAt(i + 1);
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape');
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 6;
        } else {
          const decoded = ESCAPES[e];
          if (decoded === undefined) fail('invalid escape');
          out += decoded;
          i += 2;
        }
        continue;
      }
      if (c < ' ') fail('control character in string');
      out += c;
      i++;
    }
  }

  function readObject(depth: number): Map<string, JsonValue> {
    i++; // {
    const object = new Map<string, JsonValue>();
    skipSpace();
    if (text.charAt(i) === '}') {
      i++;
      return object;
    }
    for (;;) {
      skipSpace();
      if (text.charAt(i) !== '"') fail('expected a key');
      const key = readString();
      if (object.has(key)) fail(`duplicate key ${JSON.stringify(key)}`);
      skipSpace();
      if (text.charAt(i) !== ':') fail('expected ":"');
      i++;
      object.set(key, readValue(depth + 1));
      skipSpace();
      const c = text.charAt(i++);
      if (c === '}') return object;
      if (c !== ',') fail('expected "," or "}"');
    }
  }

  function readArray(depth: number): JsonValue[] {
    i++; // [
    const array: JsonValue[] = [];
    skipSpace();
    if (text.charAt(i) === ']') {
      i++;
      return array;
    }
    for (;;) {
      array.push(readValue(depth + 1));
      skipSpace();
      const c = text.charAt(i++);
      if (c === ']') return array;
      if (c !== ',') fail('expected "," or "]"');
    }
  }

  function readValue(depth: number): JsonValue {
    if (depth > MAX_DEPTH) fail('nesting too deep');
    skipSpace();
    const c = text.charAt(i);
    if (c === '{') return readObject(depth);
    if (c === '[') return readArray(depth);
    if (c === '"') return readString();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail(c === '' ? 'unexpected end' : `unexpected ${JSON.stringify(c)}`);
    i += match[0].length;
    return new JsonNumber(match[0]);
  }

  const value = readValue(0);
  skipSpace();
  if (i < text.length) fail('unexpected text after the value');
  return value;
}
