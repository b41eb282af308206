import type { AdminTreasuryResponse, TreasuryCoin } from '@lodestone/contract';
import type { Executor } from '@lodestone/db';
import { readTreasury, treasuryResponse } from '../services/admin/treasury.js';
import {
  type CliOutput,
  consoleOutput,
  EXIT,
  type OperatorCommand,
  runOperatorCli,
  wrongUsage,
} from './operatorDatabase.js';

/**
 * `lodestone treasury [--json]` — the treasury of docs/admin.md ("Treasury") on the server: the same
 * figures as /admin/treasury, from the same service, as text or as the API's JSON answer. Exit codes
 * as the admin command: 0 shown, 64 wrong usage, 78 bad configuration.
 */
export const TREASURY_USAGE = [
  'usage: lodestone treasury          per coin: owed, due, hot wallet, shortfall, waiting payouts, profit and loss',
  '       lodestone treasury --json   the same as JSON (the answer of GET /v1/admin/treasury)',
].join('\n');

function validUsage(args: readonly string[]): boolean {
  return args.length === 0 || (args.length === 1 && args[0] === '--json');
}

const TREASURY_COMMAND: OperatorCommand = { usage: TREASURY_USAGE, validUsage };

/** Prints the treasury at `now`; returns the exit code. */
export async function runTreasuryCommand(
  args: readonly string[],
  ctx: { db: Executor; now: () => Date },
  io: CliOutput,
): Promise<number> {
  if (wrongUsage(args, TREASURY_COMMAND, io)) return EXIT.usage;
  const answer = treasuryResponse(await readTreasury(ctx.db, ctx.now()));
  if (args[0] === '--json') io.out(JSON.stringify(answer, null, 2));
  else for (const line of treasuryText(answer)) io.out(line);
  return EXIT.ok;
}

/** The treasury as lines of text: a block per coin, amounts exact in coin units. */
export function treasuryText(answer: AdminTreasuryResponse): string[] {
  const lines = [`Treasury at ${answer.generated_at} (amounts exact, in coin units)`];
  const short = answer.coins.filter(isShort).map((c) => c.coin);
  lines.push(short.length > 0 ? `SHORT: ${short.join(', ')}` : 'No wallet is short of what is due.');
  for (const coin of answer.coins) lines.push('', ...coinText(coin, answer.generated_at));
  return lines;
}

export function isShort(coin: TreasuryCoin): boolean {
  return coin.shortfall !== '0' || (coin.wallet?.fee_reserve?.shortfall ?? '0') !== '0';
}

const row = (label: string, text: string) => `  ${label.padEnd(12)}${text}`;

function coinText(c: TreasuryCoin, generatedAt: string): string[] {
  const t = c.coin;
  const out = [`${t}  ${c.name}${c.payouts_enabled ? '' : '  (payouts disabled)'}`];
  out.push(row('owed', `${c.owed} ${t}`));
  out.push(row('due', `${c.due} ${t} to ${plural(c.due_accounts, 'account')}`));
  out.push(row('wallet', walletText(c, generatedAt)));
  out.push(row('shortfall', c.shortfall === '0' ? `0 ${t}` : `${c.shortfall} ${t}  SHORT`));
  const fee = c.wallet?.fee_reserve;
  if (fee) {
    const shortfall = fee.shortfall === null ? 'unknown' : fee.shortfall === '0' ? '0' : `${fee.shortfall}  SHORT`;
    out.push(
      row(
        'fee reserve',
        `${fee.spendable ?? 'unknown'} ${fee.coin} spendable, ${fee.needed ?? 'unknown'} needed, shortfall ${shortfall}`,
      ),
    );
  }
  out.push(
    row(
      'waiting',
      `${plural(c.waiting.open_payouts, 'payout')} open (${c.waiting.open_total} ${t}), ` +
        `${plural(c.waiting.accounts_for_funds, 'account')} waiting for funds`,
    ),
  );
  const p = c.profit;
  out.push(
    row('profit', `${p.net} ${t} = mined ${p.mined} − PPS credited ${p.pps_credited} + fees kept ${p.fees_kept}`),
  );
  return out;
}

function walletText(c: TreasuryCoin, generatedAt: string): string {
  const w = c.wallet;
  if (!w) return 'no hot wallet (or not read yet)';
  const where = w.address ? ` at ${w.address}` : '';
  // The demo wallet's balance is a placeholder for "unlimited" (2^63 − 1 units), not a holding.
  const held = w.demo ? 'unlimited (demo wallet)' : `${w.spendable} ${c.coin} spendable`;
  const read =
    w.spendable === null || w.read_at === null
      ? 'never read'
      : `${held}, read ${w.read_at} (${ageText(w.read_at, generatedAt)} ago)`;
  const failed = w.error ? `; last read failed at ${w.checked_at}: ${w.error}` : '';
  return `${read}, keeps ${w.min_balance} ${c.coin}${where}${failed}`;
}

/** Whole seconds, minutes or hours between two ISO times. */
export function ageText(from: string, to: string): string {
  const seconds = Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `lodestone treasury` as a process: configuration, database (migrated), the figures, close. */
export async function treasuryCli(
  args: readonly string[],
  io: CliOutput = consoleOutput,
  env?: Record<string, string | undefined>,
): Promise<number> {
  return runOperatorCli(args, TREASURY_COMMAND, io, env, (database) =>
    runTreasuryCommand(args, { db: database.db, now: () => new Date() }, io),
  );
}
