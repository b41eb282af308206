/**
 * What an insert that a unique rule can refuse returns: the new row, or which value someone already
 * has. Such inserts say ON CONFLICT … DO NOTHING for that rule, so a refusal is an answer instead of a
 * PostgreSQL error (SQLSTATE 23505): the caller's transaction stays usable, and a racing insert of the
 * same value waits for the first to commit and then gets `{ ok: false, taken }` as well. A conflict on
 * any other unique rule is still an error: nobody can ask for it.
 */
export type Inserted<Row, Taken extends string> = { ok: true; row: Row } | { ok: false; taken: Taken };

export function inserted<Row, Taken extends string>(row: Row | undefined, taken: Taken): Inserted<Row, Taken> {
  return row === undefined ? { ok: false, taken } : { ok: true, row };
}
