import type { DecimalInput } from './decimal.js';

/**
 * Hashrate from shares, exactly. A share of difficulty d proves d × hashesPerDifficulty hashes on
 * average, where hashesPerDifficulty is the algorithm's difficulty-1 convention (2^32 for SHA256,
 * 2^16 for SCRYPT, ... — `POW[alg].hashesPerDifficulty` in @lodestone/pow). So over a window of
 * `seconds`, hashrate = Σ accepted difficulty × hashesPerDifficulty ÷ seconds.
 *
 * The arithmetic is done on exact decimals (bigint numerator, power-of-ten scale): the sum comes from
 * a NUMERIC column and 2^32 × a large sum is beyond a double's 53 bits, so floats would round.
 */
interface Scaled {
  /** value = n / 10^scale */
  n: bigint;
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

function toScaled(value: DecimalInput, what: string): Scaled {
  if (typeof value === 'bigint') {
    if (value < 0n) throw new RangeError(`${what} must not be negative: ${value}`);
    return { n: value, scale: 0 };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`${what} is not finite: ${value}`);
  // String(number) is the shortest text that reads back as the same double: 0.1 stays "0.1", the
  // value a stratum node added up, rather than the binary expansion 0.1000000000000000055511….
  const text = String(value).trim();
  if (text.startsWith('-')) {
    if (/^-0*(\.0*)?$/.test(text)) return { n: 0n, scale: 0 };
    throw new RangeError(`${what} must not be negative: ${text}`);
  }
  const m = DECIMAL.exec(text.startsWith('+') ? text.slice(1) : text);
  if (!m) throw new RangeError(`${what} is not a decimal: ${JSON.stringify(text)}`);
  const fraction = m[2] ?? '';
  const exponent = Number(m[3] ?? 0);
  let n = BigInt((m[1] ?? '0') + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    n *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { n, scale };
}

function format({ n, scale }: Scaled): string {
  if (scale === 0) return n.toString();
  const digits = n.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * A non-negative number, bigint or decimal string as a plain decimal string (no exponent), exactly as
 * written: for a JS number, its shortest round-trip text. For writing statistics into NUMERIC columns.
 */
export function plainDecimal(value: DecimalInput): string {
  return format(toScaled(value, 'value'));
}

/** The exact sum of non-negative decimals (for example difficulties reported as JS numbers). */
export function sumDecimals(values: readonly DecimalInput[]): string {
  const scaled = values.map((v) => toScaled(v, 'value'));
  const scale = Math.max(0, ...scaled.map((s) => s.scale));
  const n = scaled.reduce((acc, s) => acc + s.n * 10n ** BigInt(scale - s.scale), 0n);
  return format({ n, scale });
}

/** Σ difficulty × hashes per difficulty 1: the number of hashes the shares prove, exact. */
export function hashesFromDifficulty(sumDifficulty: DecimalInput, hashesPerDifficulty: DecimalInput): string {
  const a = toScaled(sumDifficulty, 'sumDifficulty');
  const b = toScaled(hashesPerDifficulty, 'hashesPerDifficulty');
  return format({ n: a.n * b.n, scale: a.scale + b.scale });
}

/**
 * Hashrate in H/s over a window: Σ accepted difficulty × hashesPerDifficulty ÷ seconds, rounded half
 * up to `decimals` places (default 3: a thousandth of a hash per second is below any display).
 * Returns a plain decimal string, e.g. estimateHashrate('6000', 65536, 600) === '655360'.
 */
export function estimateHashrate(
  sumDifficulty: DecimalInput,
  hashesPerDifficulty: DecimalInput,
  seconds: DecimalInput,
  decimals = 3,
): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`decimals must be a whole number: ${decimals}`);
  const a = toScaled(sumDifficulty, 'sumDifficulty');
  const b = toScaled(hashesPerDifficulty, 'hashesPerDifficulty');
  const c = toScaled(seconds, 'seconds');
  if (c.n === 0n) throw new RangeError('seconds must be positive');
  // (a.n / 10^a.scale) × (b.n / 10^b.scale) ÷ (c.n / 10^c.scale), times 10^decimals, rounded half up.
  const numerator = a.n * b.n * 10n ** BigInt(c.scale + decimals);
  const denominator = c.n * 10n ** BigInt(a.scale + b.scale);
  const rounded = (2n * numerator + denominator) / (2n * denominator);
  return format({ n: rounded, scale: decimals });
}

/** Hashrate and active miners are measured over this many minutes unless configured otherwise. */
export const DEFAULT_STATS_WINDOW_MINUTES = 10;

const MINUTE_MS = 60_000;

export interface StatsWindow {
  /** First minute in the window (inclusive). */
  from: Date;
  /** The moment of reading: the window's exclusive end, inside the current minute. */
  to: Date;
  seconds: number;
}

/**
 * The statistics window at `now`: the last `minutes` complete UTC minutes plus the current minute
 * so far, [floor(now) − minutes, now). Including the current minute lets a pool that just started
 * (or a miner who just connected) show up within seconds instead of after the next full minute; the
 * divisor is the window's true length, so the reading does not dip while the minute fills. Share
 * batches are flushed every few seconds, so the newest few seconds may still be on their way: an
 * error of at most flush interval ÷ window length (under 1% with a 10-minute window).
 */
export function statsWindow(now: Date, minutes: number): StatsWindow {
  if (!(Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440)) {
    throw new RangeError(`the statistics window must be 1 to 1440 whole minutes, got ${minutes}`);
  }
  const minuteStart = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  const from = new Date(minuteStart - minutes * MINUTE_MS);
  return { from, to: new Date(now.getTime()), seconds: (now.getTime() - from.getTime()) / 1000 };
}

/** The shortest time a young worker's hashrate is measured over: one share must not read as a spike. */
export const YOUNG_WORKER_MIN_SECONDS = 60;

/**
 * The seconds a hashrate over a period (`from`, `seconds` long, ending at `now`) is divided by for a
 * worker first seen at `firstSeenAt`: the whole period when the worker is older, else its own age — at
 * least YOUNG_WORKER_MIN_SECONDS, at most the period. Dividing a rig's first 47 seconds of shares by
 * the whole 10-minute window read 8 % of its speed, and by the 24 hours a hundredth of that.
 */
export function measuredSeconds(period: { from: Date; seconds: number }, firstSeenAt: Date | null, now: Date): number {
  if (firstSeenAt === null || firstSeenAt.getTime() <= period.from.getTime()) return period.seconds;
  const age = (now.getTime() - firstSeenAt.getTime()) / 1000;
  return Math.min(period.seconds, Math.max(YOUNG_WORKER_MIN_SECONDS, age));
}
