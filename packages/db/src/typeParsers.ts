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
