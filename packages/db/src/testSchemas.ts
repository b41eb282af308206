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
const REFERENCE_TABLES = ['schema_migrations', 'coins'];

/** Which migrations a recycled schema holds: only a test of the same build takes it. */
const MIGRATIONS_KEY = sha256Hex(MIGRATIONS.map((m) => `${m.version}:${m.name}:${sha256Hex(m.sql)}`).join('\n'));

const REGISTRY = sql`public.lodestone_test_schemas`;

export function newTestSchemaName(): string {
  return `test_${randomBytes(8).toString('hex')}`;
}

/** A schema by name, or the current one (`current_schema()`, the first of the search path). */
function schemaOf(schema: string | undefined) {
  return schema === undefined ? sql`current_schema()` : sql`${schema}::text`;
}

/**
 * Empties every table of `schema` (default: the current one) but the reference ones, identities restarted.
 */
export async function emptySchema(db: Executor, schema?: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
     where schemaname = ${schemaOf(schema)} and tablename not in (${sql.join(REFERENCE_TABLES)})
     order by tablename
  `.execute(db);
  if (rows.length === 0) return;
  const tables = rows.map((r) => (schema === undefined ? sql.id(r.name) : sql.id(schema, r.name)));
  await sql`truncate ${sql.join(tables)} restart identity cascade`.execute(db);
}

/**
 * What a test may rely on in `schema` (default: the current one), as one digest: every relation (with
 * its persistence, options and row security), column (type, collation, default, identity, generation),
 * constraint, index, function (its whole definition), trigger (internal ones too: disabling them turns
 * foreign keys off), rule, policy, type and view, with the schema's own name left out; every
 * sequence's settings and state; every table's row count and the reference tables' rows.
 */
export async function schemaFingerprint(db: Executor, schema?: string): Promise<string> {
  // Every function below touches only this schema's objects. The views' own functions (pg_sequences'
  // pg_sequence_last_value, which locks each sequence) are evaluated before a join's filter when `s` is
  // materialized: on other tests' schemas too, deadlocking with one being emptied. Inlined, `s` filters first.
  const { rows } = await sql<{ fingerprint: string }>`
    with s as not materialized (select ${schemaOf(schema)} as name, ${schemaOf(schema)}::regnamespace as ns),
    lines as (
      select format('rel %s %s %s %s %s', c.relname, c.relkind, c.relpersistence, c.reloptions, c.relrowsecurity) as line
        from pg_class c, s where c.relnamespace = s.ns
      union all
      select format('col %s.%s %s %s %s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
                    a.attnotnull, a.attidentity, a.attgenerated, a.attcollation::regcollation,
                    pg_get_expr(d.adbin, d.adrelid))
        from pg_attribute a join pg_class c on c.oid = a.attrelid
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum, s
       where c.relnamespace = s.ns and a.attnum > 0 and not a.attisdropped
      union all
      select format('con %s %s', conname, pg_get_constraintdef(con.oid)) from pg_constraint con, s where connamespace = s.ns
      union all
      select format('idx %s', indexdef) from pg_indexes, s where schemaname = s.name
      union all
      select format('fn %s', pg_get_functiondef(p.oid)) from pg_proc p, s where p.pronamespace = s.ns and p.prokind <> 'a'
      union all
      select format('trg %s %s %s %s', c.relname, t.tgisinternal, t.tgenabled,
                    case when t.tgisinternal then t.tgfoid::regproc::text else pg_get_triggerdef(t.oid) end)
        from pg_trigger t join pg_class c on c.oid = t.tgrelid, s where c.relnamespace = s.ns
      union all
      select format('rule %s %s', rulename, definition) from pg_rules, s where schemaname = s.name
      union all
      select format('policy %s %s %s %s %s', tablename, policyname, cmd, qual, with_check) from pg_policies, s
       where schemaname = s.name
      union all
      select format('type %s %s', t.typname,
                    (select string_agg(enumlabel, ',' order by enumsortorder) from pg_enum where enumtypid = t.oid))
        from pg_type t, s where t.typnamespace = s.ns
      union all
      select format('view %s %s', viewname, definition) from pg_views, s where schemaname = s.name
      union all
      select format('seq %s %s %s %s %s %s %s %s', c.relname, q.seqtypid::regtype, q.seqstart, q.seqmin, q.seqmax,
                    q.seqincrement, q.seqcycle,
                    query_to_xml(format('select last_value, is_called from %I.%I', s.name, c.relname), false, true, ''))
        from pg_sequence q join pg_class c on c.oid = q.seqrelid, s where c.relnamespace = s.ns
      union all
      select format('rows %s %s', tablename,
                    query_to_xml(format('select %s as n from %I.%I', case when tablename in (${sql.join(REFERENCE_TABLES)})
                                 then 'md5(string_agg(t::text, '','' order by t::text))' else 'count(*)' end,
                                 schemaname, tablename) || ' t', false, true, ''))
        from pg_tables, s where schemaname = s.name
    )
    -- The schema's name goes from the text (a function's definition names it) before the digest.
    select md5(replace(string_agg(line, E'\n' order by line), (select name from s) || '.', '')) as fingerprint
      from lines
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
    for (const { name } of stale.rows) await dropSchema(admin.db, name);
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
 * freshly migrated (`fingerprint`), renames it and offers it to the next test; otherwise, or when that
 * fails, drops it. Closes `database` either way. Returns the name it is offered under, or undefined.
 */
export async function recycleTestSchema(
  database: Database,
  schema: string,
  fingerprint: string | undefined,
): Promise<string | undefined> {
  const { db } = database;
  try {
    // The registry is made by the first claim, or here when a schema is offered first (a fresh server
    // whose first test migrated its own): outside the offer's transaction, which a lost race would abort.
    const offered =
      fingerprint === undefined
        ? undefined
        : await ensureRegistry(db)
            .then(() => offerAgain(db, schema, fingerprint))
            .catch(() => undefined);
    if (offered === undefined) await dropSchema(db, schema);
    return offered;
  } finally {
    await database.close();
  }
}

/**
 * One transaction: the truncation's locks keep a late write of the old test out until the schema has
 * its new name, where that test's connections no longer find it.
 */
function offerAgain(db: Kysely<DB>, schema: string, fingerprint: string): Promise<string | undefined> {
  return db.transaction().execute(async (tx) => {
    await emptySchema(tx, schema);
    if ((await schemaFingerprint(tx, schema)) !== fingerprint) return undefined;
    const name = newTestSchemaName();
    await sql`alter schema ${sql.id(schema)} rename to ${sql.id(name)}`.execute(tx);
    await sql`insert into ${REGISTRY} (name, migrations, fingerprint)
              values (${name}, ${MIGRATIONS_KEY}, ${fingerprint})`.execute(tx);
    return name;
  });
}

/** Drops a test schema on a connection of its own (when the test's own could not be opened). */
export async function dropTestSchema(url: string, schema: string): Promise<void> {
  const admin = await createDatabase({ url });
  try {
    await dropSchema(admin.db, schema);
  } finally {
    await admin.close();
  }
}

function dropSchema(db: Kysely<DB>, schema: string): Promise<unknown> {
  return sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}
