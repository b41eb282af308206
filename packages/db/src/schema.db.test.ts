import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './connection.js';
import { generateSchemaTypes, TYPE_MAPPING } from './schemaCodegen.js';
import { createTestDatabase, testEngines } from './testing.js';

// The migrations are the truth about tables and columns; schema.generated.ts is what kysely-codegen
// reads from a database they built. The file is checked in, so that code review shows every change to
// the types next to the migration that makes it. This test regenerates it and fails on any difference;
// `npm run db:types` runs this file with --update, which rewrites it.

const STALE = 'schema.generated.ts does not match the migrations: run `npm run db:types` and commit the result';

/** A read value's type, spelled as TYPE_MAPPING spells it. */
function typeName(value: unknown): string {
  if (value instanceof Date) return 'Date';
  if (value instanceof Uint8Array) return 'Uint8Array';
  return typeof value;
}

/** The read type of a TYPE_MAPPING entry: `ColumnType<Read, …>` or the plain type. */
function readType(mapped: string): string {
  return /^ColumnType<(\w+),/.exec(mapped)?.[1] ?? mapped;
}

describe.each(testEngines())('database types (%s)', (engine) => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('schema.generated.ts is what kysely-codegen makes of the migrated database', async () => {
    const generated = await generateSchemaTypes(database.db);
    await expect(generated, STALE).toMatchFileSnapshot('./schema.generated.ts');
  });

  it('maps each SQL type to the TypeScript type its values are read as (typeParsers.ts)', async () => {
    const samples: Record<string, unknown> = {};
    for (const udt of Object.keys(TYPE_MAPPING)) {
      const text = /^(date|timestamp)/.test(udt) ? 'epoch' : '1';
      const { rows } = await sql<{
        value: unknown;
      }>`select cast(cast(${text} as text) as ${sql.raw(udt)}) as value`.execute(database.db);
      samples[udt] = typeName(rows[0]?.value);
    }
    const mapped = Object.fromEntries(Object.entries(TYPE_MAPPING).map(([udt, ts]) => [udt, readType(ts)]));
    expect(samples).toEqual(mapped);
  });
});
