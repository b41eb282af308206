import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminTreasuryResponse } from '@lodestone/contract';
import { createDatabase, type Database, migrate } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTreasury, TREASURY_NOW } from '../services/admin/treasuryFixture.js';
import { type CliOutput, EXIT } from './operatorDatabase.js';
import { runTreasuryCommand, TREASURY_USAGE, treasuryCli } from './treasury.js';

function capture(): CliOutput & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

describe.each(testEngines())('lodestone treasury on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    await seedTreasury(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  const run = async (args: string[]) => {
    const io = capture();
    const code = await runTreasuryCommand(args, { db: database.db, now: () => TREASURY_NOW }, io);
    return { code, ...io };
  };

  it('prints every figure of each coin, the shortfalls marked', async () => {
    const { code, lines, errors } = await run([]);
    expect(code).toBe(EXIT.ok);
    expect(errors).toEqual([]);
    expect(lines.slice(0, 2)).toEqual([
      'Treasury at 2026-05-06T12:00:00.000Z (amounts exact, in coin units)',
      'SHORT: LTC, USDC',
    ]);
    const block = (coin: string) => {
      const start = lines.findIndex((l) => l.startsWith(`${coin}  `));
      const end = lines.indexOf('', start);
      return lines.slice(start, end === -1 ? undefined : end);
    };
    expect(block('LTC')).toEqual([
      'LTC  Litecoin',
      '  owed        2.3 LTC',
      '  due         2.3 LTC to 2 accounts',
      '  wallet      2.2 LTC spendable, read 2026-05-06T11:58:30.000Z (90 s ago), keeps 0.1 LTC',
      '  shortfall   0.2 LTC  SHORT',
      '  waiting     1 payout open (0.25 LTC), 1 account waiting for funds',
      '  profit      3.7 LTC = mined 6.25 − PPS credited 2.6 + fees kept 0.05',
    ]);
    expect(block('USDC')).toEqual([
      'USDC  USD Coin (Ethereum)',
      '  owed        50 USDC',
      '  due         50 USDC to 1 account',
      '  wallet      100 USDC spendable, read 2026-05-06T11:58:30.000Z (90 s ago), keeps 5 USDC at 0x00000000000000000000000000000000000f00d5',
      '  shortfall   0 USDC',
      '  fee reserve 0.001 ETH spendable, 0.0016 needed, shortfall 0.0006  SHORT',
      '  waiting     0 payouts open (0 USDC), 1 account waiting for funds',
      '  profit      0 USDC = mined 0 − PPS credited 0 + fees kept 0',
    ]);
    expect(block('ETH')[3]).toBe(
      '  wallet      1 ETH spendable, read 2026-05-06T11:00:00.000Z (60 min ago), keeps 0.1 ETH at 0x00000000000000000000000000000000000f00d5; last read failed at 2026-05-06T11:59:30.000Z: connect ECONNREFUSED 127.0.0.1:8545',
    );
    expect(block('BTC')[3]).toBe('  wallet      no hot wallet (or not read yet)');
  });

  it('prints the API answer with --json, and the usage for anything else (exit 64)', async () => {
    const json = await run(['--json']);
    expect(json.code).toBe(EXIT.ok);
    const answer = adminTreasuryResponse.parse(JSON.parse(json.lines.join('\n')));
    expect(answer.coins.find((c) => c.coin === 'LTC')).toMatchObject({ owed: '2.3', due: '2.3', shortfall: '0.2' });
    expect(answer.coins.find((c) => c.coin === 'USDC')?.wallet?.fee_reserve?.shortfall).toBe('0.0006');
    for (const args of [['--yaml'], ['--json', 'x'], ['list']]) {
      const res = await run(args);
      expect(res.code, args.join(' ')).toBe(EXIT.usage);
      expect(res.errors).toEqual([TREASURY_USAGE]);
    }
  });
});

describe('treasuryCli (the process entry)', () => {
  it('reads the database under DATA_DIR', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-treasury-cli-'));
    const database = await createDatabase({ dataDir });
    await migrate(database);
    await seedTreasury(database.db);
    await database.close();
    const io = capture();
    expect(await treasuryCli(['--json'], io, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' })).toBe(EXIT.ok);
    const answer = adminTreasuryResponse.parse(JSON.parse(io.lines.join('\n')));
    expect(answer.coins.find((c) => c.coin === 'LTC')?.owed).toBe('2.3');
  });

  it('answers --help with its usage and exit 0, with no configuration or database read (issue 30)', async () => {
    const io = capture();
    const nowhere = mkdtempSync(path.join(tmpdir(), 'lodestone-treasury-help-'));
    expect(await treasuryCli(['--help'], io, { DATA_DIR: nowhere, SESSION_TTL_DAYS: 'soon' })).toBe(EXIT.ok);
    expect(io.lines).toEqual([TREASURY_USAGE]);
    expect(io.errors).toEqual([]);
  });
});
