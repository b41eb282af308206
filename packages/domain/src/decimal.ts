/**
 * Exact helpers for decimal strings as PostgreSQL returns NUMERIC values ("-12.3400", "5e-7" is never
 * produced by Postgres, but we accept plain numbers too). Money never goes through these as a float.
 */
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export type DecimalInput = string | number | bigint;

export function isDecimalString(value: string): boolean {
  return DECIMAL.test(value);
}

function toPlainString(value: DecimalInput): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    // toFixed(20) loses nothing for the magnitudes we hold and never uses exponent notation below 1e21.
    return Math.abs(value) >= 1e21 ? BigInt(Math.round(value)).toString() : trimZeros(value.toFixed(20));
  }
  return value.trim();
}

function trimZeros(s: string): string {
  if (!s.includes('.')) return s;
  const t = s.replace(/0+$/, '').replace(/\.$/, '');
  return t === '-0' ? '0' : t;
}

/** Multiplies a decimal by 10^places (negative places divide), exactly, returning a canonical string. */
export function shiftDecimal(value: DecimalInput, places: number): string {
  const plain = toPlainString(value);
  const m = DECIMAL.exec(plain);
  if (!m) throw new RangeError(`not a decimal: ${JSON.stringify(plain)}`);
  const sign = m[1] ?? '';
  const intPart = m[2] ?? '0';
  const frac = m[3] ?? '';
  let digits = intPart + frac;
  let point = intPart.length + places;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(point);
  const out = trimZeros(rest ? `${whole}.${rest}` : whole);
  return out === '0' ? '0' : sign + out;
}

/** A decimal as a JavaScript number, for display and statistics only — never for money. */
export function decimalToNumber(value: DecimalInput): number {
  const n = Number(toPlainString(value));
  if (!Number.isFinite(n)) throw new RangeError(`not a decimal: ${String(value)}`);
  return n;
}
