import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HttpPriceSource, type HttpPriceSourceOptions, JsonNumber, parseExactJson } from './httpPrices.js';
import { PriceFeedError } from './priceSource.js';

/** Recorded-style CoinGecko simple/price body; the numbers are an example response (see fixtures/README.md). */
const RECORDED = readFileSync(new URL('./fixtures/coingecko-simple-price.json', import.meta.url), 'utf8');

const URL_BASE = 'https://api.coingecko.com/api/v3/simple/price';
const now = () => new Date('2025-01-02T03:04:05Z');

const MAPPING = {
  BTC: 'bitcoin',
  LTC: 'litecoin',
  DOGE: 'dogecoin',
  DGB: 'digibyte',
  ETH: 'ethereum',
  CKB: 'nervos-network',
  KDA: 'kadena',
  DASH: 'dash',
  KAS: 'kaspa',
  BEL: 'bellscoin',
  BCH: 'bitcoin-cash',
  USDC: 'usd-coin',
  SOL: 'solana',
};

interface Served {
  status?: number;
  body: string;
}

/** An injected fetch serving canned responses, recording each request. */
function serve(...responses: Served[]) {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(input), init });
    const next = responses.shift() ?? { status: 500, body: 'no more canned responses' };
    return new Response(next.body, { status: next.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

function source(fetchImpl: typeof fetch, options: Partial<HttpPriceSourceOptions> = {}) {
  return new HttpPriceSource({ url: URL_BASE, mapping: MAPPING, fiat: ['EUR'], fetch: fetchImpl, now, ...options });
}

async function feedError(promise: Promise<unknown>): Promise<PriceFeedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PriceFeedError);
  return error as PriceFeedError;
}

describe('HttpPriceSource with a recorded CoinGecko response', () => {
  it('asks for every mapped id in usd and eur, and returns every price exactly as sent', async () => {
    const { fetchImpl, requests } = serve({ body: RECORDED });
    const snapshot = await source(fetchImpl).fetch();

    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(
      `${URL_BASE}?ids=bitcoin,litecoin,dogecoin,digibyte,ethereum,nervos-network,kadena,dash,kaspa,bellscoin,bitcoin-cash,usd-coin,solana&vs_currencies=usd,eur`,
    );
    expect(snapshot.source).toBe('api.coingecko.com');
    expect(snapshot.takenAt).toEqual(now());
    expect(snapshot.quotes).toEqual([
      { ticker: 'BTC', usd: '64123.5' },
      { ticker: 'LTC', usd: '71.23' },
      { ticker: 'DOGE', usd: '0.1234' },
      { ticker: 'DGB', usd: '0.00912345' },
      { ticker: 'ETH', usd: '3456.78' },
      { ticker: 'CKB', usd: '0.01234567' },
      { ticker: 'KDA', usd: '0.6123' },
      { ticker: 'DASH', usd: '28.45' },
      { ticker: 'KAS', usd: '0.1502' },
      { ticker: 'BEL', usd: '0.3921' },
      { ticker: 'BCH', usd: '412.3' },
      { ticker: 'USDC', usd: '0.999845' },
      { ticker: 'SOL', usd: '145.67' },
      { ticker: 'USD', usd: '1' },
      // 64123.5 / 59000.1 to 12 significant digits (Python decimal: 1.0868371409539983…).
      { ticker: 'EUR', usd: '1.08683714095' },
    ]);
  });

  it('asks for usd only when no fiat is wanted, and appends to a URL that has a query (API key)', async () => {
    const { fetchImpl, requests } = serve({ body: RECORDED });
    const snapshot = await source(fetchImpl, {
      url: `${URL_BASE}?x_cg_demo_api_key=secret`,
      mapping: { LTC: 'litecoin', BTC: 'bitcoin', WBTC: 'bitcoin' },
      fiat: [],
      headers: { 'x-cg-demo-api-key': 'secret' },
      name: 'coingecko',
    }).fetch();
    expect(requests[0]?.url).toBe(`${URL_BASE}?x_cg_demo_api_key=secret&ids=litecoin,bitcoin&vs_currencies=usd`);
    expect(new Headers(requests[0]?.init?.headers).get('x-cg-demo-api-key')).toBe('secret');
    expect(snapshot.source).toBe('coingecko');
    expect(snapshot.quotes).toEqual([
      { ticker: 'LTC', usd: '71.23' },
      { ticker: 'BTC', usd: '64123.5' },
      { ticker: 'WBTC', usd: '64123.5' },
      { ticker: 'USD', usd: '1' },
    ]);
  });

  it('derives EUR from the first mapped coin when BTC is not mapped', async () => {
    const { fetchImpl } = serve({ body: RECORDED });
    const snapshot = await source(fetchImpl, { mapping: { LTC: 'litecoin', DOGE: 'dogecoin' } }).fetch();
    expect(snapshot.quotes.at(-1)).toEqual({ ticker: 'EUR', usd: '1.08681721086' }); // 71.23 / 65.54
  });
});

describe('exactness', () => {
  it('keeps a price of 0.000012345678901 unchanged (JSON.parse would round it through a double)', async () => {
    const body = '{"tiny":{"usd":0.000012345678901,"eur":0.0000113580246}}';
    const { fetchImpl } = serve({ body });
    const snapshot = await source(fetchImpl, { mapping: { TINY: 'tiny' }, fiat: [] }).fetch();
    expect(snapshot.quotes[0]).toEqual({ ticker: 'TINY', usd: '0.000012345678901' });
  });

  it('expands exponent notation exactly and keeps digits beyond a double', async () => {
    const body =
      '{"a":{"usd":1.2345678901e-05},"b":{"usd":64123.50000000000000001},"c":{"usd":"0.30000000000000004441"}}';
    const { fetchImpl } = serve({ body });
    const snapshot = await source(fetchImpl, { mapping: { AAA: 'a', BBB: 'b', CCC: 'c' }, fiat: [] }).fetch();
    expect(snapshot.quotes.slice(0, 3)).toEqual([
      { ticker: 'AAA', usd: '0.000012345678901' },
      { ticker: 'BBB', usd: '64123.50000000000000001' },
      { ticker: 'CCC', usd: '0.30000000000000004441' },
    ]);
  });
});

describe('errors', () => {
  it('HTTP status other than 200, with the status and the start of the body, without the query', async () => {
    const { fetchImpl } = serve({ status: 429, body: '{"status":{"error_code":429,"error_message":"rate limited"}}' });
    const error = await feedError(source(fetchImpl, { url: `${URL_BASE}?x_cg_demo_api_key=secret` }).fetch());
    expect(error.message).toMatch(/HTTP 429/);
    expect(error.message).toMatch(/rate limited/);
    expect(error.message).toContain(URL_BASE);
    expect(error.message).not.toContain('secret');
  });

  it('another 2xx than 200 is refused too (a proxy answering from a stale or partial cache)', async () => {
    const { fetchImpl } = serve({ status: 203, body: '' });
    expect((await feedError(source(fetchImpl).fetch())).message).toMatch(/HTTP 203.*empty body/);
  });

  it.each([
    ['<html>Bad gateway</html>', /not JSON/],
    ['{"bitcoin":{"usd":64123.5}', /not JSON/],
    ['{"bitcoin":{"usd":01}}', /not JSON/],
    ['{"bitcoin":{"usd":1},"bitcoin":{"usd":2}}', /duplicate key/],
    ['[1,2]', /not an object/],
    ['', /not JSON/],
  ])('non-JSON or malformed body %j', async (body, message) => {
    const { fetchImpl } = serve({ body });
    expect((await feedError(source(fetchImpl, { mapping: { BTC: 'bitcoin' }, fiat: [] }).fetch())).message).toMatch(
      message,
    );
  });

  it('missing ids: names every missing ticker and id, no partial snapshot', async () => {
    const { fetchImpl } = serve({ body: '{"bitcoin":{"usd":64123.5,"eur":59000.1},"litecoin":{}}' });
    const error = await feedError(
      source(fetchImpl, { mapping: { BTC: 'bitcoin', LTC: 'litecoin', KAS: 'kaspa' } }).fetch(),
    );
    expect(error.message).toMatch(/no price for LTC \(litecoin\), KAS \(kaspa\)/);
  });

  it('missing ids with allowMissing: the snapshot leaves them out; none at all still fails', async () => {
    const { fetchImpl } = serve({ body: '{"bitcoin":{"usd":64123.5,"eur":59000.1}}' }, { body: '{}' });
    const lenient = source(fetchImpl, { mapping: { KAS: 'kaspa', BTC: 'bitcoin' }, allowMissing: true });
    expect((await lenient.fetch()).quotes.map((q) => q.ticker)).toEqual(['BTC', 'USD', 'EUR']);
    expect((await feedError(lenient.fetch())).message).toMatch(
      /no price for any mapped coin: missing KAS \(kaspa\), BTC/,
    );
  });

  it.each([
    ['{"bitcoin":{"usd":0}}', /usd price of BTC \(bitcoin\) is not a positive decimal/],
    ['{"bitcoin":{"usd":-64123.5}}', /not a positive decimal/],
    ['{"bitcoin":{"usd":null}}', /missing BTC \(bitcoin\)/],
    ['{"bitcoin":{"usd":"n/a"}}', /usd price of BTC \(bitcoin\) is not a number: "n\/a"/],
    ['{"bitcoin":{"usd":true}}', /not a number: true/],
    ['{"bitcoin":{"usd":{"value":1}}}', /not a number: an object/],
    ['{"bitcoin":{"usd":1e400}}', /out of range/],
    ['{"bitcoin":[64123.5]}', /entry of bitcoin is not an object/],
  ])('non-positive or non-numeric price %j', async (body, message) => {
    const { fetchImpl } = serve({ body });
    expect((await feedError(source(fetchImpl, { mapping: { BTC: 'bitcoin' }, fiat: [] }).fetch())).message).toMatch(
      message,
    );
  });

  it('EUR wanted but the reference coin has no eur price, or a zero one', async () => {
    const { fetchImpl } = serve(
      { body: '{"bitcoin":{"usd":64123.5}}' },
      { body: '{"bitcoin":{"usd":64123.5,"eur":0}}' },
    );
    const feed = source(fetchImpl, { mapping: { BTC: 'bitcoin' } });
    expect((await feedError(feed.fetch())).message).toMatch(/no eur price of BTC \(bitcoin\) to derive EUR/);
    expect((await feedError(feed.fetch())).message).toMatch(/eur price of BTC \(bitcoin\) is not a positive decimal/);
  });

  it('timeout: the request is aborted and reported', async () => {
    let signal: AbortSignal | undefined;
    const hanging = ((_input: string | URL | Request, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal?.reason));
      });
    }) as typeof fetch;
    const error = await feedError(source(hanging, { timeoutMs: 20 }).fetch());
    expect(error.message).toMatch(/did not answer within 20 ms/);
    expect(signal?.aborted).toBe(true);
  });

  it('network failure', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    expect((await feedError(source(failing).fetch())).message).toMatch(/could not be reached: fetch failed/);
  });

  it.each([
    [{ url: 'not a url' }, /not a URL/],
    [{ url: 'ftp://example.com/prices' }, /http\(s\)/],
    [{ mapping: {} }, /mapping is empty/],
    [{ mapping: { btc: 'bitcoin' } }, /upper-case/],
    [{ mapping: { BTC: 'bitcoin,litecoin' } }, /not a provider coin id/],
    [{ mapping: { EUR: 'euro' } }, /fiat/],
    [{ fiat: ['GBP'] as unknown as ['EUR'] }, /GBP/],
    [{ timeoutMs: 0 }, /timeout/],
  ] as const)('refuses settings %j', (options, message) => {
    const { fetchImpl } = serve();
    expect(() => source(fetchImpl, options as Partial<HttpPriceSourceOptions>)).toThrow(PriceFeedError);
    expect(() => source(fetchImpl, options as Partial<HttpPriceSourceOptions>)).toThrow(message);
  });
});

describe('parseExactJson', () => {
  it('reads objects, arrays, strings with escapes, literals and numbers as text', () => {
    const value = parseExactJson(' {"a":[1,-2.5e+3,true,false,null],"b":"x\\"\\u00e9\\n","c":{}} ');
    expect(value).toBeInstanceOf(Map);
    const map = value as Map<string, unknown>;
    expect(map.get('a')).toEqual([new JsonNumber('1'), new JsonNumber('-2.5e+3'), true, false, null]);
    expect(map.get('b')).toBe('x"é\n');
    expect(map.get('c')).toEqual(new Map());
  });

  it('does not give "__proto__" keys any special meaning', () => {
    const map = parseExactJson('{"__proto__":{"usd":1}}') as Map<string, unknown>;
    expect([...map.keys()]).toEqual(['__proto__']);
  });

  it.each(['{', '{"a":1,}', '[1 2]', '"\\x"', '"a\nb"', '01', '1.', '-', '{"a" 1}', 'tru', '1 2'])(
    'refuses %j',
    (text) => {
      expect(() => parseExactJson(text)).toThrow(SyntaxError);
    },
  );

  it('refuses absurd nesting instead of overflowing the stack', () => {
    expect(() => parseExactJson(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)).toThrow(/too deep/);
  });
});
