import { types as pgliteTypes } from '@electric-sql/pglite';

/**
 * How column values come back, identical on PGlite and PostgreSQL because both drivers get these
 * parsers (PGlite through its `parsers` option, pg through a per-pool TypeOverrides):
 *
 * - int8 / bigint  → JS `bigint`, always. (pg would give a string, PGlite a number that silently
 *                    becomes a bigint above 2^53.) Identity ids and coin amounts are bigint in TS.
 * - numeric        → `string`, exact as PostgreSQL prints it (pg's default for numeric[] is a lossy
 *                    float, so arrays are covered too).
 * - timestamptz    → `Date` (millisecond precision: microseconds are truncated).
 * - timestamp, date, interval → `string`: we store instants as timestamptz; these have no time zone
 *                    and the two drivers disagree about them, so we hand out the text unchanged.
 * - everything else keeps the drivers' defaults, which already agree (int2/int4/float → number,
 *   bool, json/jsonb → parsed JSON, text/uuid → string; bytea → Uint8Array, a Buffer on pg).
 *
 * Parsers read PostgreSQL's text output with DateStyle ISO, which `sessionSettings` pins on both.
 */
export type TypeParser = (text: string) => unknown;

const keepText: TypeParser = (text) => text;

/** [element type oid, its array type oid, parser] — oids from pg_type. */
const PARSED_TYPES: readonly (readonly [oid: number, arrayOid: number, parse: TypeParser])[] = [
  [20, 1016, (text) => BigInt(text)], // int8
  [1700, 1231, keepText], // numeric
  [1184, 1185, parseTimestamptz], // timestamptz
  [1114, 1115, keepText], // timestamp
  [1082, 1182, keepText], // date
  [1186, 1187, keepText], // interval
];

/** Parsers keyed by type oid, for scalars and their arrays (one array parser for both engines). */
export const TYPE_PARSERS: Readonly<Record<number, TypeParser>> = Object.fromEntries(
  PARSED_TYPES.flatMap(([oid, arrayOid, parse]) => [
    [oid, parse],
    [arrayOid, (text: string) => pgliteTypes.arrayParser(text, parse, arrayOid)],
  ]),
);

// 2024-05-06 07:08:09.123456+02, 1650-01-01 00:00:00+00:53:28, 0044-03-15 12:00:00+00 BC
const TIMESTAMPTZ =
  /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?( BC)?$/;

/**
 * Parses timestamptz text (DateStyle ISO) into a Date. 'infinity' and '-infinity' are refused rather
 * than returned as a non-Date: store NULL for "no end" instead.
 */
export function parseTimestamptz(text: string): Date {
  return parseUtcTimestamptz(text) ?? parseAnyTimestamptz(text);
}

/** Character codes of the fixed places of `2024-05-06 07:08:09[.ffffff]+00`. */
const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const ZERO = 48;

/** The decimal number written at [from, to), or NaN if a character there is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return Number.NaN;
    value = value * 10 + d;
  }
  return value;
}

/**
 * The form every session prints (sessionSettings pins TimeZone to UTC): a four-digit year from 1000,
 * whole UTC, up to six fraction digits. Read by position, without the general expression: a list of
 * 10,000 workers holds 10,000 of them, and the expression cost the dashboard's workers list about 15 ms.
 * Undefined for any other form, which the general parser reads.
 */
function parseUtcTimestamptz(text: string): Date | undefined {
  const n = text.length;
  const fractionDigits = n - 23; // after "…:09." and before "+00"
  if (n !== 22 && (fractionDigits < 1 || fractionDigits > 6 || text.charCodeAt(19) !== DOT)) return undefined;
  if (
    text.charCodeAt(4) !== DASH ||
    text.charCodeAt(7) !== DASH ||
    text.charCodeAt(10) !== SPACE ||
    text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON ||
    text.charCodeAt(n - 3) !== PLUS ||
    text.charCodeAt(n - 2) !== ZERO ||
    text.charCodeAt(n - 1) !== ZERO ||
    text.charCodeAt(0) === ZERO // a year before 1000: Date.UTC would read 0–99 as 1900–1999
  ) {
    return undefined;
  }
  // Milliseconds: the first three fraction digits (microseconds are truncated, as the general parser does).
  const msDigits = Math.min(3, Math.max(0, fractionDigits));
  const fraction = n === 22 ? 0 : digitsAt(text, 20, n - 3);
  const ms = msDigits === 0 ? 0 : digitsAt(text, 20, 20 + msDigits) * 10 ** (3 - msDigits);
  const time = Date.UTC(
    digitsAt(text, 0, 4),
    digitsAt(text, 5, 7) - 1,
    digitsAt(text, 8, 10),
    digitsAt(text, 11, 13),
    digitsAt(text, 14, 16),
    digitsAt(text, 17, 19),
    ms,
  );
  return Number.isNaN(time) || Number.isNaN(fraction) ? undefined : new Date(time);
}

function parseAnyTimestamptz(text: string): Date {
  const m = TIMESTAMPTZ.exec(text);
  if (!m) throw new RangeError(`cannot read timestamptz ${JSON.stringify(text)} as a Date`);
  const [, year, month, day, hour, minute, second, fraction, sign, offsetH, offsetM, offsetS, bc] = m;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999. 1 BC is year 0.
  date.setUTCFullYear(bc ? 1 - Number(year) : Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number((fraction ?? '').padEnd(3, '0').slice(0, 3)));
  const offsetSeconds = Number(offsetH) * 3600 + Number(offsetM ?? 0) * 60 + Number(offsetS ?? 0);
  return new Date(date.getTime() - (sign === '-' ? -1 : 1) * offsetSeconds * 1000);
}
