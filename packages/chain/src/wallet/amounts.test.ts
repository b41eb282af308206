import { describe, expect, it } from 'vitest';
import {
  decimalToUnits,
  exactDecimalFetch,
  JsonDecimal,
  jsonDecimal,
  numberToUnits,
  quoteFractionalNumbers,
  rpcAmountToUnits,
  unitsToDecimal,
  writeDecimalLiterals,
} from './amounts.js';

describe('unitsToDecimal', () => {
  it('writes every digit of the smallest units, with exactly `decimals` places', () => {
    expect(unitsToDecimal(12345678n, 8)).toBe('0.12345678');
    expect(unitsToDecimal(100000001n, 8)).toBe('1.00000001');
    expect(unitsToDecimal(0n, 8)).toBe('0.00000000');
    expect(unitsToDecimal(-5n, 8)).toBe('-0.00000005');
    expect(unitsToDecimal(2_100_000_000_000_000n, 8)).toBe('21000000.00000000');
    expect(unitsToDecimal(12345678901212345678n, 8)).toBe('123456789012.12345678');
    expect(unitsToDecimal(42n, 0)).toBe('42');
    expect(unitsToDecimal(1n, 18)).toBe('0.000000000000000001');
  });

  it('refuses decimals that are not a coin precision', () => {
    expect(() => unitsToDecimal(1n, -1)).toThrow(RangeError);
    expect(() => unitsToDecimal(1n, 1.5)).toThrow(RangeError);
    expect(() => unitsToDecimal(1n, 19)).toThrow(RangeError);
  });
});

describe('decimalToUnits', () => {
  it('reads decimal text exactly, including text no double can hold', () => {
    expect(decimalToUnits('0.12345678', 8)).toBe(12345678n);
    expect(decimalToUnits('-0.00001750', 8)).toBe(-1750n);
    expect(decimalToUnits('50.00000000', 8)).toBe(5_000_000_000n);
    expect(decimalToUnits('50', 8)).toBe(5_000_000_000n);
    expect(decimalToUnits('0.1', 8)).toBe(10_000_000n);
    expect(decimalToUnits('123456789012.12345678', 8)).toBe(12345678901212345678n);
    expect(decimalToUnits('0.123456780', 8)).toBe(12345678n);
  });

  it('reads JSON exponents', () => {
    expect(decimalToUnits('1e-8', 8)).toBe(1n);
    expect(decimalToUnits('-1750E-8', 8)).toBe(-1750n);
    expect(decimalToUnits('1.5e+2', 8)).toBe(15_000_000_000n);
  });

  it('round-trips with unitsToDecimal', () => {
    for (const units of [0n, 1n, 9n, 12345678n, 99999999n, 100000000n, 2_099_999_997_690_000n, -1n]) {
      expect(decimalToUnits(unitsToDecimal(units, 8), 8)).toBe(units);
    }
  });

  it('refuses more precision than the coin has, and text that is not a JSON number', () => {
    expect(() => decimalToUnits('0.123456789', 8)).toThrow(/more than 8 decimals/);
    expect(() => decimalToUnits('1e-9', 8)).toThrow(/more than 8 decimals/);
    for (const bad of ['', 'abc', '1.', '.5', '01', '+1', '1,5', ' 1', '0x10', 'NaN']) {
      expect(() => decimalToUnits(bad, 8), bad).toThrow(/not a decimal amount/);
    }
  });
});

describe('numberToUnits', () => {
  it('rounds a double to the amount the daemon printed', () => {
    expect(numberToUnits(0.12345678, 8)).toBe(12345678n);
    expect(numberToUnits(-0.0000175, 8)).toBe(-1750n);
    // 0.29 × 1e8 is 28999999.999999996 in doubles: truncating it would lose a unit.
    expect(numberToUnits(0.29, 8)).toBe(29_000_000n);
    expect(numberToUnits(21_000_000, 8)).toBe(2_100_000_000_000_000n);
    expect(numberToUnits(45_035_995.99999999, 8)).toBe(4_503_599_599_999_999n);
    expect(numberToUnits(-0, 8)).toBe(0n);
  });

  it('refuses doubles that are not exact amounts or too large to tell neighbouring units apart', () => {
    expect(() => numberToUnits(0.123456785, 8)).toThrow(/more than 8 decimals/);
    // The result of arithmetic, not of parsing "0.3": no daemon printed it.
    expect(() => numberToUnits(0.1 + 0.2, 8)).toThrow(/more than 8 decimals/);
    expect(() => numberToUnits(45_035_997, 8)).toThrow(/too large/);
    expect(() => numberToUnits(Number.NaN, 8)).toThrow(/finite/);
    expect(() => numberToUnits(Number.POSITIVE_INFINITY, 8)).toThrow(/finite/);
  });
});

describe('rpcAmountToUnits', () => {
  it('takes exact text or a double, nothing else', () => {
    expect(rpcAmountToUnits('0.00002260', 8)).toBe(2260n);
    expect(rpcAmountToUnits(0.0000226, 8)).toBe(2260n);
    expect(() => rpcAmountToUnits(null, 8)).toThrow(/not an amount/);
    expect(() => rpcAmountToUnits(1n, 8)).toThrow();
  });
});

describe('JSON request bodies', () => {
  it('writes amounts as bare number literals, digit for digit', () => {
    const body = JSON.stringify({
      params: ['', { rltc1qa: jsonDecimal(12345678n, 8), rltc1qb: jsonDecimal(30_000_000n, 8) }, 1, 'payout-1'],
    });
    expect(writeDecimalLiterals(body)).toBe('{"params":["",{"rltc1qa":0.12345678,"rltc1qb":0.30000000},1,"payout-1"]}');
  });

  it('leaves alone strings that merely look like an amount or a mark', () => {
    const body = JSON.stringify(['0.12345678', '\u0000exact-decimal:0.5', jsonDecimal(5n, 8)]);
    expect(writeDecimalLiterals(body)).toBe('["0.12345678","\\u0000exact-decimal:0.5",0.00000005]');
  });

  it('refuses a JsonDecimal that is not a plain decimal', () => {
    expect(() => new JsonDecimal('1e-8')).toThrow(RangeError);
    expect(() => new JsonDecimal('0.1"}')).toThrow(RangeError);
  });
});

describe('quoteFractionalNumbers', () => {
  it('turns fractional and exponent literals into strings and leaves integers, strings and keywords alone', () => {
    const reply =
      '{"result":{"amount":-0.12345678,"fee":-0.00001750,"confirmations":3,"blockheight":431,' +
      '"comment":"pay 1.5 \\" 2.5","trusted":true,"tiny":1e-8,"list":[0.1,2,-3]},"error":null,"id":7}';
    expect(JSON.parse(quoteFractionalNumbers(reply))).toEqual({
      result: {
        amount: '-0.12345678',
        fee: '-0.00001750',
        confirmations: 3,
        blockheight: 431,
        comment: 'pay 1.5 " 2.5',
        trusted: true,
        tiny: '1e-8',
        list: ['0.1', 2, -3],
      },
      error: null,
      id: 7,
    });
  });

  it('keeps the daemon text of values no double holds', () => {
    expect(JSON.parse(quoteFractionalNumbers('{"result":123456789012.12345678}'))).toEqual({
      result: '123456789012.12345678',
    });
    expect(JSON.parse(quoteFractionalNumbers('[90071992547409.93]'))).toEqual(['90071992547409.93']);
  });

  it('returns text that is not a JSON object or array unchanged', () => {
    expect(quoteFractionalNumbers('<html>502 Bad Gateway 1.5</html>')).toBe('<html>502 Bad Gateway 1.5</html>');
    expect(quoteFractionalNumbers('')).toBe('');
    expect(quoteFractionalNumbers('1.5')).toBe('1.5');
  });
});

describe('exactDecimalFetch', () => {
  it('rewrites the request body and the reply around the inner fetch, keeping status and headers', async () => {
    let seenBody: unknown;
    const inner: typeof fetch = async (_input, init) => {
      seenBody = init?.body;
      return new Response('{"result":-0.00002260,"error":null,"id":1}', {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-daemon': 'ltc' },
      });
    };
    const response = await exactDecimalFetch(inner)('http://127.0.0.1/', {
      method: 'POST',
      body: JSON.stringify({ id: 1, params: [{ a: jsonDecimal(2260n, 8) }] }),
    });
    expect(seenBody).toBe('{"id":1,"params":[{"a":0.00002260}]}');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-daemon')).toBe('ltc');
    expect(await response.json()).toEqual({ result: '-0.00002260', error: null, id: 1 });
  });

  it('passes error statuses and failures through', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(exactDecimalFetch(failing)('http://127.0.0.1/', { body: '{}' })).rejects.toThrow('fetch failed');
    const erroring: typeof fetch = async () =>
      new Response('{"result":null,"error":{"code":-6,"message":"Insufficient funds"},"id":1}', { status: 500 });
    const response = await exactDecimalFetch(erroring)('http://127.0.0.1/', { body: '{}' });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: -6 } });
  });
});
