import { describe, expect, it } from 'vitest';
import { parseJsonExact, stringifyJsonExact } from './json.js';

describe('JSON with u64 integers', () => {
  it('reads integers above 2^53 as exact bigints and leaves the rest as JSON.parse reads them', () => {
    const text =
      '{"nonce":18446744073709551615,"daaScore":9007199254740993,"bits":486722099,"difficulty":1.5e3,"neg":-9007199254740993,"s":"12345678901234567890","a":[1,2.5,-3]}';
    expect(parseJsonExact(text)).toEqual({
      nonce: 18446744073709551615n,
      daaScore: 9007199254740993n,
      bits: 486722099,
      difficulty: 1500,
      neg: -9007199254740993n,
      s: '12345678901234567890',
      a: [1, 2.5, -3],
    });
  });

  it('does not touch digits inside strings, escaped quotes included', () => {
    expect(parseJsonExact('{"m":"x\\" 99999999999999999999 \\\\","n":99999999999999999999}')).toEqual({
      m: 'x" 99999999999999999999 \\',
      n: 99999999999999999999n,
    });
  });

  it('writes bigints as bare integer literals, round trip exact', () => {
    const value = { id: 7, params: { nonce: 18446744073709551615n, list: [1n, 'a'] } };
    const text = stringifyJsonExact(value);
    expect(text).toBe('{"id":7,"params":{"nonce":18446744073709551615,"list":[1,"a"]}}');
    expect(parseJsonExact(text)).toEqual({ id: 7, params: { nonce: 18446744073709551615n, list: [1, 'a'] } });
  });

  it('throws on text that is not JSON', () => {
    expect(() => parseJsonExact('{"a":')).toThrow(SyntaxError);
  });
});
