/**
 * npm run ledger:check — the ledger reconciliation on the configured database (DATABASE_URL, or the
 * embedded database under DATA_DIR): every balance equals the sum of its entries, no mining account
 * is below zero, every ledger transaction sums to zero per coin. Prints each problem; exit 0 when
 * there is none, 1 when there are, 78 on a configuration error.
 */
import { createDatabase, migrate, reconcileLedger } from '@lodestone/db';
import { ConfigError, loadConfig } from '../src/config/config.js';

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 78;
    }
    throw error;
  }
  const database = await createDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database);
    const problems = await reconcileLedger(database.db);
    const [counts] = await Promise.all([
      database.db
        .selectFrom('ledger_entries')
        .select((eb) => eb.fn.countAll<string>().as('entries'))
        .executeTakeFirstOrThrow(),
    ]);
    if (problems.length === 0) {
      console.log(`ledger reconciles: ${counts.entries} entries, every balance equals its entries, none negative`);
      return 0;
    }
    for (const p of problems) console.log(`${p.kind}: ${p.detail}`);
    console.log(`${problems.length} problem(s)`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
