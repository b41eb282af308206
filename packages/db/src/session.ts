/**
 * Settings applied to every session on both engines, so that SQL behaves the same everywhere:
 * date arithmetic (`date_trunc('day', ...)`, `::date`) in UTC whatever the server's TimeZone, and the
 * text formats that typeParsers.ts reads. `schema`, when given, becomes the only schema searched.
 */
export function sessionSettings(schema: string | undefined): { sql: string; parameters: unknown[] } {
  const settings: [string, string][] = [
    ['TimeZone', 'UTC'],
    ['DateStyle', 'ISO, MDY'],
    ['IntervalStyle', 'postgres'],
  ];
  if (schema !== undefined) settings.push(['search_path', `"${checkSchemaName(schema)}"`]);
  // set_config with bind parameters: no value is ever spliced into the SQL text.
  const calls = settings.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`);
  return { sql: `select ${calls.join(', ')}`, parameters: settings.flat() };
}

/** Schema names are for tests and operators, so we only accept plain lowercase identifiers. */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`schema: ${JSON.stringify(schema)} is not a lowercase identifier ([a-z_][a-z0-9_]*)`);
  }
  return schema;
}
