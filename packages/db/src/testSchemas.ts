import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { sha256Hex } from './checksum.js';
import { createDatabase, type Database } from './connection.js';
import { MIGRATIONS } from './migrations.js';
import type { DB, Executor } from './schema.js';

// PostgreSQL test schemas, used again. A run of the suite opens about two hundred; creating one and
// applying every migration costs the server half a CPU second, dropping it more. A closed test
// database is instead emptied, checked to be exactly as it was when freshly migrated (its catalogue,
// its reference rows, every other table empty, its sequences restarted), renamed, and offered to the
// next test, in any process, through a table in the public schema. A schema that fails the check is
// dropped as before. Renaming keeps a late connection of the old test from reaching the next one's
// rows: its queries find no tables, as they found none when the schema was dropped.

/** Tables the migrations fill with reference data or that record the migrations: kept when emptied. */
export const REFERENCE_TABLES = ['schema_migrations', 'coins'];

/** Which migrations a recycled schema holds: only a test of the same build takes it. */
const MIGRATIONS_KEY = sha256Hex(MIGRATIONS.map((m) => `${m.version}:${m.name}:${sha256Hex(m.sql)}`).join('\n'));

const REGISTRY = sql`public.lodestone_test_schemas`;

export function newTestSchemaName(): string {
  return `test_${randomBytes(8).toString('hex')}`;
}

/**
 * Empties every table of the current schema but the reference ones, identities restarted.
 */
export async function emptySchema(db: Executor): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
     where schemaname = current_schema() and tablename not in (${sql.join(REFERENCE_TABLES)})
     order by tablename
  `.execute(db);
  if (rows.length === 0) return;
  await sql`truncate ${sql.join(rows.map((r) => sql.id(r.name)))} restart identity cascade`.execute(db);
}

/**
 * What a test may rely on in the current schema, as one digest: every relation, column, default,
 * constraint, index, function, trigger and type (the schema's own name left out), every sequence's
 * state, every table's row count and the reference tables' rows.
 */
export async function schemaFingerprint(db: Executor): Promise<string> {
  const { rows } = await sql<{ fingerprint: string }>`
    with s as (select current_schema()::regnamespace as ns, current_schema() || '.' as prefix),
    lines as (
      select format('rel %s %s', c.relname, c.relkind) as line from pg_class c, s where c.relnamespace = s.ns
      union all
      select format('col %s.%s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                    pg_get_expr(d.adbin, d.adrelid))
        from pg_attribute a join pg_class c on c.oid = a.attrelid
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum, s
       where c.relnamespace = s.ns and a.attnum > 0 and not a.attisdropped
      union all
      select format('con %s %s', conname, pg_get_constraintdef(con.oid)) from pg_constraint con, s where connamespace = s.ns
      union all
      select format('idx %s', indexdef) from pg_indexes where schemaname = current_schema()
      union all
      select format('fn %s %s', p.oid::regprocedure, md5(p.prosrc)) from pg_proc p, s where p.pronamespace = s.ns
      union all
      select format('trg %s %s', t.tgenabled, pg_get_triggerdef(t.oid))
        from pg_trigger t join pg_class c on c.oid = t.tgrelid, s where c.relnamespace = s.ns and not t.tgisinternal
      union all
      select format('type %s %s', t.typname,
                    (select string_agg(enumlabel, ',' order by enumsortorder) from pg_enum where enumtypid = t.oid))
        from pg_type t, s where t.typnamespace = s.ns
      union all
      select format('view %s %s', viewname, md5(definition)) from pg_views where schemaname = current_schema()
      union all
      select format('seq %s %s', sequencename, last_value) from pg_sequences where schemaname = current_schema()
      union all
      select format('rows %s %s', tablename,
                    query_to_xml(format('select %s as n from %I.%I', case when tablename in (${sql.join(REFERENCE_TABLES)})
                                 then 'md5(string_agg(t::text, '','' order by t::text))' else 'count(*)' end,
                                 schemaname, tablename) || ' t', false, true, ''))
        from pg_tables where schemaname = current_schema()
    )
    select md5(replace(string_agg(line, E'\n' order by line), (select prefix from s), '')) as fingerprint from lines
  `.execute(db);
  const fingerprint = rows[0]?.fingerprint;
  if (fingerprint === undefined) throw new Error('schemaFingerprint: no answer');
  return fingerprint;
}

async function ensureRegistry(db: Kysely<DB>): Promise<void> {
  try {
    await sql`
      create table if not exists ${REGISTRY} (
        name text primary key,
        migrations text not null,
        fingerprint text not null
      )
    `.execute(db);
  } catch (error) {
    // Two processes creating it at once: one wins, the other sees its type or its name taken.
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P07') throw error;
  }
}

/** A recycled schema of this build's migrations with its fingerprint, or undefined when none is free. */
export async function claimTestSchema(url: string): Promise<{ name: string; fingerprint: string } | undefined> {
  const admin = await createDatabase({ url });
  try {
    await ensureRegistry(admin.db);
    // Schemas of another build's migrations go: the migrator would refuse them or add to them.
    const stale = await sql<{ name: string }>`
      delete from ${REGISTRY} where migrations <> ${MIGRATIONS_KEY} returning name
    `.execute(admin.db);
    for (const { name } of stale.rows) await sql`drop schema if exists ${sql.id(name)} cascade`.execute(admin.db);
    const { rows } = await sql<{ name: string; fingerprint: string }>`
      delete from ${REGISTRY}
       where name = (select name from ${REGISTRY} where migrations = ${MIGRATIONS_KEY} limit 1 for update skip locked)
      returning name, fingerprint
    `.execute(admin.db);
    return rows[0];
  } finally {
    await admin.close();
  }
}

/**
 * Empties the schema of `database` (open on `schema`), and when it is then exactly as it was when
 * freshly migrated (`fingerprint`), renames it and offers it to the next test; otherwise drops it.
 * Closes `database` either way. Returns the name it is offered under, or undefined when dropped.
 */
export async function recycleTestSchema(
  database: Database,
  schema: string,
  fingerprint: string | undefined,
): Promise<string | undefined> {
  const { db } = database;
  try {
    const offered = fingerprint === undefined ? undefined : await offerAgain(db, schema, fingerprint);
    if (offered === undefined) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    return offered;
  } finally {
    await database.close();
  }
}

async function offerAgain(db: Kysely<DB>, schema: string, fingerprint: string): Promise<string | undefined> {
  await emptySchema(db);
  if ((await schemaFingerprint(db)) !== fingerprint) return undefined;
  const name = newTestSchemaName();
  await db.transaction().execute(async (tx) => {
    await sql`alter schema ${sql.id(schema)} rename to ${sql.id(name)}`.execute(tx);
    await sql`insert into ${REGISTRY} (name, migrations, fingerprint)
              values (${name}, ${MIGRATIONS_KEY}, ${fingerprint})`.execute(tx);
  });
  return name;
}
