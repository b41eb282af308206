import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './connection.js';
import { createTestDatabase, testEngines } from './testing.js';

// schema.ts is written by hand; the migrations are the truth. This test reads both — the tables a
// migrated database has (information_schema) and the interfaces of schema.ts — and fails on any drift:
// a table or column missing on either side, a column whose nullability differs, a column whose
// TypeScript type is not what typeParsers.ts hands out for its SQL type, or an insert type that lets
// a write omit a NOT NULL column that has no default.

const SCHEMA_TS = readFileSync(new URL('./schema.ts', import.meta.url), 'utf8');

interface SqlColumn {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  udt_name: string;
  column_default: string | null;
  is_identity: 'YES' | 'NO';
}

interface TsColumn {
  /** The select type's members, aliases and literals resolved: 'string', 'bigint', 'null', … */
  select: Set<string>;
  /** Whether Insertable<> lets a write leave the column out. */
  optionalOnInsert: boolean;
}

/** Top-level pieces of a type list or union: `A<B, C> | D` split on `sep` outside brackets. */
function splitTop(text: string, sep: ',' | '|'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
    else if (c === '>' || c === ')' || c === ']' || c === '}') depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p !== '');
}

/** `Name<args>` → args, split at the top level; null when `type` is not that generic. */
function genericArgs(type: string, name: string): string[] | null {
  if (!type.startsWith(`${name}<`) || !type.endsWith('>')) return null;
  return splitTop(type.slice(name.length + 1, -1), ',');
}

const ALIASES = new Map<string, string>(
  [...SCHEMA_TS.matchAll(/^export type (\w+) =\s*([^;]+);/gm)].map((m) => [m[1] ?? '', (m[2] ?? '').trim()]),
);

/** The members of a type, aliases followed: string literal unions and AlgorithmKey are 'string'. */
function members(type: string): string[] {
  return splitTop(type, '|').flatMap((part) => {
    if (/^'.*'$/.test(part) || part === 'AlgorithmKey') return ['string'];
    const alias = ALIASES.get(part);
    if (alias === undefined) return [part];
    const column = genericArgs(alias, 'ColumnType');
    return members(column ? (column[0] ?? '') : alias);
  });
}

function readColumnType(type: string): TsColumn {
  for (const generated of ['Generated', 'GeneratedAlways']) {
    const args = genericArgs(type, generated);
    if (args) return { select: new Set(members(args[0] ?? '')), optionalOnInsert: true };
  }
  const aliased = ALIASES.get(type);
  const args = genericArgs(aliased && genericArgs(aliased, 'ColumnType') ? aliased : type, 'ColumnType');
  if (args) {
    const insert = members(args[1] ?? args[0] ?? '');
    return {
      select: new Set(members(args[0] ?? '')),
      optionalOnInsert: insert.includes('undefined') || insert.includes('null'),
    };
  }
  const select = new Set(members(type));
  return { select, optionalOnInsert: select.has('null') };
}

/** table → column → its TypeScript type, from `interface DB` and the interfaces it names. */
function readSchemaTs(): Map<string, Map<string, TsColumn>> {
  const interfaces = new Map<string, string>(
    [...SCHEMA_TS.matchAll(/^export interface (\w+) \{\n([\s\S]*?)^\}/gm)].map((m) => [m[1] ?? '', m[2] ?? '']),
  );
  const fields = (body: string) =>
    body
      .replace(/\/\*\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
      .split(';')
      .map((f) => f.replace(/\s+/g, ' ').trim())
      .filter((f) => f !== '')
      .map((f) => {
        const colon = f.indexOf(':');
        return [f.slice(0, colon).trim(), f.slice(colon + 1).trim()] as const;
      });
  const tables = new Map<string, Map<string, TsColumn>>();
  for (const [table, interfaceName] of fields(interfaces.get('DB') ?? '')) {
    const body = interfaces.get(interfaceName);
    if (body === undefined) throw new Error(`schema.ts: DB.${table} names ${interfaceName}, which it does not declare`);
    tables.set(table, new Map(fields(body).map(([column, type]) => [column, readColumnType(type)])));
  }
  return tables;
}

/** What typeParsers.ts hands out for a column's SQL type (udt_name; arrays start with '_'). */
function expectedTsType(udt: string): string | null {
  if (udt.startsWith('_')) {
    const element = expectedTsType(udt.slice(1));
    return element === null ? null : `${element}[]`;
  }
  switch (udt) {
    case 'int8':
      return 'bigint';
    case 'int2':
    case 'int4':
    case 'float4':
    case 'float8':
      return 'number';
    case 'numeric':
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'uuid':
    case 'timestamp':
    case 'date':
    case 'interval':
      return 'string';
    case 'timestamptz':
      return 'Date';
    case 'bool':
      return 'boolean';
    case 'bytea':
      return 'Uint8Array';
    default:
      return null; // json/jsonb: any shape; the interface says which
  }
}

describe.each(testEngines())('schema.ts against the migrated database (%s)', (engine) => {
  let database: Database;
  let columns: SqlColumn[];
  const declared = readSchemaTs();

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    const result = await sql<SqlColumn>`
      select table_name, column_name, is_nullable, udt_name, column_default, is_identity
      from information_schema.columns
      where table_schema = current_schema()
      order by table_name, ordinal_position`.execute(database.db);
    columns = result.rows;
  });
  afterAll(async () => {
    await database?.close();
  });

  it('declares every table and column the migrations create, and no other', () => {
    const actual = new Map<string, string[]>();
    for (const c of columns) actual.set(c.table_name, [...(actual.get(c.table_name) ?? []), c.column_name]);
    const sorted = (m: Map<string, Iterable<string>>) =>
      Object.fromEntries(
        [...m].map(([t, cs]) => [t, [...cs].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))),
      );
    expect(sorted(new Map([...declared].map(([t, cs]) => [t, cs.keys()])))).toEqual(sorted(actual));
  });

  it('gives each column the nullability, value type and insert optionality of its SQL definition', () => {
    const drift: string[] = [];
    for (const c of columns) {
      const ts = declared.get(c.table_name)?.get(c.column_name);
      if (!ts) continue; // the test above names it
      const where = `${c.table_name}.${c.column_name}`;
      const nullable = c.is_nullable === 'YES';
      if (ts.select.has('null') !== nullable) drift.push(`${where}: ${nullable ? 'NULL allowed' : 'NOT NULL'} in SQL`);
      const expected = expectedTsType(c.udt_name);
      const values = [...ts.select].filter((t) => t !== 'null');
      const fits = (t: string) => t === expected || (expected === 'Uint8Array' && t === 'Buffer');
      if (expected !== null && !values.every(fits))
        drift.push(`${where}: ${c.udt_name} reads as ${expected}, not ${values.join(' | ')}`);
      const hasDefault = c.column_default !== null || c.is_identity === 'YES';
      if (!nullable && !hasDefault && ts.optionalOnInsert)
        drift.push(`${where}: NOT NULL without a default, yet optional on insert`);
    }
    expect(drift).toEqual([]);
  });
});
