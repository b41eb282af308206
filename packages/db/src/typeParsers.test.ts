import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './typeParsers.js';

describe('parseTimestamptz', () => {
  it('reads the UTC form sessions print, to the millisecond, microseconds truncated', () => {
    expect(parseTimestamptz('2024-05-06 07:08:09+00')).toEqual(new Date('2024-05-06T07:08:09.000Z'));
    expect(parseTimestamptz('2024-05-06 07:08:09.1+00')).toEqual(new Date('2024-05-06T07:08:09.100Z'));
    expect(parseTimestamptz('2024-05-06 07:08:09.12+00')).toEqual(new Date('2024-05-06T07:08:09.120Z'));
    expect(parseTimestamptz('2024-05-06 07:08:09.123+00')).toEqual(new Date('2024-05-06T07:08:09.123Z'));
    expect(parseTimestamptz('2024-05-06 07:08:09.123999+00')).toEqual(new Date('2024-05-06T07:08:09.123Z'));
    expect(parseTimestamptz('1999-12-31 23:59:59.999+00')).toEqual(new Date('1999-12-31T23:59:59.999Z'));
  });

  it('reads other offsets, early years and BC through the general form', () => {
    expect(parseTimestamptz('2024-05-06 07:08:09.123456+02')).toEqual(new Date('2024-05-06T05:08:09.123Z'));
    expect(parseTimestamptz('1650-01-01 00:00:00+00:53:28')).toEqual(new Date('1649-12-31T23:06:32.000Z'));
    const early = parseTimestamptz('0044-03-15 12:00:00+00');
    expect(early.getUTCFullYear()).toBe(44);
    expect(parseTimestamptz('0044-03-15 12:00:00+00 BC').getUTCFullYear()).toBe(-43);
    expect(parseTimestamptz('12345-01-01 00:00:00+00').getUTCFullYear()).toBe(12345);
  });

  it('refuses what is no timestamptz, whichever way it is read', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2024-05-06T07:08:09+00',
      '2024-05-06 07:08:0x+00',
      '2024-05-06 07:08:09.+00',
      '2024-05-06 07:08:09.1234567+00',
    ]) {
      expect(() => parseTimestamptz(text), text).toThrow(RangeError);
    }
  });
});
