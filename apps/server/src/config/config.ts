import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { PayoutScheme } from '@lodestone/domain';
import { parse as parseToml } from 'smol-toml';
import type { z } from 'zod';
import { type CoinSetting, SETTINGS, type SettingKey } from './settings.js';

type Schema<K extends SettingKey> = (typeof SETTINGS)[K]['schema'];
type HasDefault<K extends SettingKey> = (typeof SETTINGS)[K] extends { default: unknown } ? K : never;
type DefaultedKey = { [K in SettingKey]: HasDefault<K> }[SettingKey];

/** The one validated configuration object; nothing else in the program reads process.env. */
export type Config = { [K in DefaultedKey]: z.output<Schema<K>> } & {
  [K in Exclude<SettingKey, DefaultedKey>]?: z.output<Schema<K>>;
} & {
  publicUrl: string;
  /** `dataDir` resolved to an absolute path. */
  dataDir: string;
  /** Defaults to the host name. */
  nodeName: string;
  /** Defaults to `{poolName} <no-reply@{host of publicUrl}>`. */
  mailFrom: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Where the file setting lives: `server.port` → ['server', 'port']. */
function lookup(tree: Record<string, unknown>, dotted: string): unknown {
  let node: unknown = tree;
  for (const part of dotted.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function fileKeys(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    const isSection = v !== null && typeof v === 'object' && !Array.isArray(v) && !prefix;
    return isSection ? fileKeys(v as Record<string, unknown>, key) : [key];
  });
}

/**
 * Builds the configuration from environment variables (which win) and the parsed config file.
 * Every problem is collected, each naming the setting the way the operator wrote it.
 */
export function parseConfig(env: Record<string, string | undefined>, file: Record<string, unknown> = {}, cwd = '.') {
  const problems: string[] = [];
  const known = new Set(Object.values(SETTINGS).map((s) => s.file));
  for (const key of fileKeys(file)) {
    if (!known.has(key)) problems.push(`config file: unknown setting '${key}'`);
  }

  const values: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS)) {
    const fromEnv = env[setting.env];
    const fromFile = lookup(file, setting.file);
    const source = fromEnv !== undefined && fromEnv !== '' ? setting.env : fromFile !== undefined ? setting.file : null;
    if (source === null) {
      values[key] = 'default' in setting ? setting.default : undefined;
      continue;
    }
    const raw = source === setting.env ? fromEnv : fromFile;
    const result = setting.schema.safeParse(raw);
    if (result.success) {
      values[key] = result.data;
    } else {
      const issue = result.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
      problems.push(`${source}: ${issue?.message ?? 'invalid value'}${where}, got ${JSON.stringify(raw)}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const config = values as Config;
  problems.push(...crossChecks(config));
  if (problems.length > 0) throw new ConfigError(problems);
  config.nodeName ??=
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .slice(0, 64) || 'lodestone';
  config.dataDir = path.resolve(cwd, config.dataDir);
  config.publicUrl = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
  config.mailFrom ??= `${config.poolName.replace(/[<>"]/g, '')} <no-reply@${new URL(config.publicUrl).hostname}>`;
  return config;
}

/** Rules that involve several settings or several entries of one. */
function crossChecks(config: Config): string[] {
  const problems: string[] = [];
  const ports = new Map<string, number>();
  for (const [i, l] of config.stratumListeners.entries()) {
    const key = l.host.includes(':') ? `[${l.host}]:${l.port}` : `${l.host}:${l.port}`;
    const first = ports.get(key);
    if (first !== undefined && l.port !== 0)
      problems.push(`STRATUM_LISTENERS: entries ${first} and ${i} both use ${key}`);
    else ports.set(key, i);
    if (l.min_difficulty && l.max_difficulty && l.min_difficulty > l.max_difficulty) {
      problems.push(`STRATUM_LISTENERS: entry ${i} (${key}) has min_difficulty above max_difficulty`);
    }
    if (l.tls && !(config.stratumTlsKeyFile && config.stratumTlsCertFile)) {
      problems.push(
        `STRATUM_LISTENERS: entry ${i} (${key}) uses TLS; set STRATUM_TLS_KEY_FILE and STRATUM_TLS_CERT_FILE`,
      );
    }
  }
  const coinByAlgorithm = new Map<string, string>();
  for (const coin of config.coins) {
    const other = coinByAlgorithm.get(coin.algorithm);
    if (other)
      problems.push(`COINS: ${other} and ${coin.ticker} are both mined with ${coin.algorithm}; one coin per algorithm`);
    coinByAlgorithm.set(coin.algorithm, coin.ticker);
  }
  // Two coins of one algorithm are refused above; a merged coin mined again anywhere is refused here.
  const tickers = minedTickers(config.coins);
  for (const aux of tickers.filter((t) => t.mergedWith !== undefined)) {
    if (tickers.filter((t) => t.ticker === aux.ticker).length > 1) {
      problems.push(`COINS: ${aux.ticker}, merge-mined with ${aux.mergedWith}, is mined elsewhere too`);
    }
  }
  return problems;
}

/** Every coin the pool mines: each configured coin, then the coins merge-mined with it. */
export function minedTickers(
  coins: readonly CoinSetting[],
): { ticker: string; algorithm: CoinSetting['algorithm']; mergedWith?: string; coinbaseMaturity?: number }[] {
  return coins.flatMap((coin) => [
    { ticker: coin.ticker, algorithm: coin.algorithm },
    ...('merged' in coin ? coin.merged : []).map((aux) => ({
      ticker: aux.ticker,
      algorithm: coin.algorithm,
      mergedWith: coin.ticker,
      coinbaseMaturity: aux.coinbase_maturity,
    })),
  ]);
}

/** The coins set to FPPS (docs/money.md, "FPPS"); every other coin, merged ones included, is valued by PPS. */
export function fppsCoins(coins: readonly CoinSetting[]): CoinSetting[] {
  return coins.filter((coin) => 'payout_scheme' in coin && coin.payout_scheme === 'fpps');
}

/** Every mined coin with the scheme its shares are valued by: FPPS where set, merged coins by PPS. */
export function payoutSchemeCoins(
  coins: readonly CoinSetting[],
): { ticker: string; algorithm: CoinSetting['algorithm']; mergedWith?: string; scheme: PayoutScheme }[] {
  const fpps = new Set(fppsCoins(coins).map((c) => c.ticker));
  return minedTickers(coins).map(({ ticker, algorithm, mergedWith }) => ({
    ticker,
    algorithm,
    ...(mergedWith !== undefined && { mergedWith }),
    scheme: fpps.has(ticker) && mergedWith === undefined ? 'fpps' : 'pps',
  }));
}

export function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([`LODESTONE_CONFIG: cannot read ${file}: ${(error as Error).message}`]);
  }
  try {
    const parsed: unknown = file.endsWith('.json') ? JSON.parse(text) : parseToml(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error('the top level must be a table/object');
    }
    return parsed as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError([
      `LODESTONE_CONFIG: ${file} is not valid ${file.endsWith('.json') ? 'JSON' : 'TOML'}: ${(error as Error).message}`,
    ]);
  }
}

/** The program's entry point into configuration: environment plus the optional LODESTONE_CONFIG file. */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const file = env.LODESTONE_CONFIG ? readConfigFile(path.resolve(cwd, env.LODESTONE_CONFIG)) : {};
  return parseConfig(env, file, cwd);
}
