import type { DecimalInput } from './decimal.js';

/**
 * An exact decimal: value = n / 10^scale. Money maths (PPS values, fees, splits, conversions) runs on
 * these, never on floats. Multiplication is exact (scales add); division is the one inexact step and
 * always says how many decimals it keeps and rounds toward zero, so a split never hands out more than
 * it was given.
 */
/** The largest exponent `Exact.of` reads in scientific notation, either sign. */
const MAX_EXPONENT = 400;

export class Exact {
  private constructor(
    readonly n: bigint,
    readonly scale: number,
  ) {}

  static readonly ZERO = new Exact(0n, 0);
  static readonly ONE = new Exact(1n, 0);

  /** Parses "12", "-0.5", "1e-8", a bigint (whole units) or a finite number (by its shortest text). */
  static of(value: DecimalInput | Exact): Exact {
    if (value instanceof Exact) return value;
    if (typeof value === 'bigint') return new Exact(value, 0);
    if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    const text = String(value).trim();
    const m =
      /^([+-])?(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text) ?? /^([+-])?()\.(\d+)(?:e([+-]?\d+))?$/i.exec(text);
    if (!m) throw new RangeError(`not a decimal: ${JSON.stringify(text)}`);
    // Every double's text fits (1e308, 5e-324); a larger exponent is an attack on 10n ** exponent's CPU time.
    if (Math.abs(Number(m[4] ?? 0)) > MAX_EXPONENT)
      throw new RangeError(`exponent out of range: ${JSON.stringify(text)}`);
    const fraction = m[3] ?? '';
    let n = BigInt(`${m[2] || '0'}${fraction}`);
    if (m[1] === '-') n = -n;
    let scale = fraction.length - Number(m[4] ?? 0);
    if (scale < 0) {
      n *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return new Exact(n, scale).normalized();
  }

  /** Whole units from a smallest-unit integer and the coin's decimals: fromUnits(150n, 2) = 1.5. */
  static fromUnits(units: bigint, decimals: number): Exact {
    return new Exact(units, decimals).normalized();
  }

  private normalized(): Exact {
    let { n, scale } = this;
    if (n === 0n) return Exact.ZERO;
    while (scale > 0 && n % 10n === 0n) {
      n /= 10n;
      scale -= 1;
    }
    return n === this.n && scale === this.scale ? this : new Exact(n, scale);
  }

  private static align(a: Exact, b: Exact): [bigint, bigint, number] {
    const scale = Math.max(a.scale, b.scale);
    return [a.n * 10n ** BigInt(scale - a.scale), b.n * 10n ** BigInt(scale - b.scale), scale];
  }

  plus(other: DecimalInput | Exact): Exact {
    const [a, b, scale] = Exact.align(this, Exact.of(other));
    return new Exact(a + b, scale).normalized();
  }

  minus(other: DecimalInput | Exact): Exact {
    const [a, b, scale] = Exact.align(this, Exact.of(other));
    return new Exact(a - b, scale).normalized();
  }

  times(other: DecimalInput | Exact): Exact {
    const o = Exact.of(other);
    return new Exact(this.n * o.n, this.scale + o.scale).normalized();
  }

  /** this ÷ other, keeping `decimals` decimals, rounded toward zero. */
  dividedBy(other: DecimalInput | Exact, decimals: number): Exact {
    const o = Exact.of(other);
    if (o.n === 0n) throw new RangeError('division by zero');
    // (n1/10^s1) / (n2/10^s2) = n1 × 10^(s2 − s1 + d) / n2 / 10^d
    const shift = o.scale - this.scale + decimals;
    const numerator = shift >= 0 ? this.n * 10n ** BigInt(shift) : this.n;
    const denominator = shift >= 0 ? o.n : o.n * 10n ** BigInt(-shift);
    return new Exact(numerator / denominator, decimals).normalized();
  }

  /** Multiplies by 10^places exactly (negative places divide). */
  shifted(places: number): Exact {
    return places >= 0
      ? new Exact(this.n * 10n ** BigInt(places), this.scale).normalized()
      : new Exact(this.n, this.scale - places).normalized();
  }

  /** Largest integer ≤ this. */
  floor(): bigint {
    if (this.scale === 0) return this.n;
    const d = 10n ** BigInt(this.scale);
    const q = this.n / d;
    return this.n < 0n && q * d !== this.n ? q - 1n : q;
  }

  /** Rounded toward zero to `decimals` decimals. */
  truncated(decimals: number): Exact {
    if (this.scale <= decimals) return this;
    return new Exact(this.n / 10n ** BigInt(this.scale - decimals), decimals).normalized();
  }

  compare(other: DecimalInput | Exact): -1 | 0 | 1 {
    const [a, b] = Exact.align(this, Exact.of(other));
    return a < b ? -1 : a > b ? 1 : 0;
  }

  isZero(): boolean {
    return this.n === 0n;
  }

  isNegative(): boolean {
    return this.n < 0n;
  }

  /** Plain decimal text without exponent or trailing zeros: what NUMERIC columns and the API take. */
  toString(): string {
    if (this.scale === 0) return this.n.toString();
    const negative = this.n < 0n;
    const digits = (negative ? -this.n : this.n).toString().padStart(this.scale + 1, '0');
    const text = `${digits.slice(0, digits.length - this.scale)}.${digits.slice(digits.length - this.scale)}`;
    return negative ? `-${text}` : text;
  }

  /** Fixed decimals, rounded toward zero — for display of money (never more than the value). */
  toFixed(decimals: number): string {
    const t = this.truncated(decimals);
    const text = t.toString();
    const [whole, fraction = ''] = text.split('.');
    return decimals === 0 ? (whole ?? '0') : `${whole}.${fraction.padEnd(decimals, '0')}`;
  }

  /** For charts and statistics only. */
  toNumber(): number {
    return Number(this.toString());
  }
}

/** Smallest units as a coin amount string: unitsToAmount(150000000n, 8) = "1.5". */
export function unitsToAmount(units: bigint, decimals: number): string {
  return Exact.fromUnits(units, decimals).toString();
}

/** A coin amount as smallest units, refusing more decimals than the coin has. */
export function amountToUnits(amount: DecimalInput, decimals: number): bigint {
  const shifted = Exact.of(amount).shifted(decimals);
  if (shifted.scale !== 0) throw new RangeError(`${String(amount)} has more than ${decimals} decimals`);
  return shifted.n;
}
