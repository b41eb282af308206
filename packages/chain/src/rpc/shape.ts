import { isHex } from '../bitcoin/bytes.js';
import { RpcError } from './errors.js';

/**
 * Checks a daemon's result against the shape a method returns. A mismatch is an RpcError of kind
 * `malformed` naming the field, so a daemon's odd reply is a clear error, never a crash further on.
 */
export class Shape {
  constructor(
    private readonly method: string,
    private readonly daemon = 'daemon',
  ) {}

  fail(message: string): never {
    throw new RpcError('malformed', message, { method: this.method, daemon: this.daemon });
  }

  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(`${field} is not an object`);
    return value as Record<string, unknown>;
  }

  array(value: unknown, field: string): unknown[] {
    if (!Array.isArray(value)) this.fail(`${field} is not an array`);
    return value;
  }

  string(value: unknown, field: string): string {
    if (typeof value !== 'string') this.fail(`${field} is not a string`);
    return value;
  }

  optionalString(value: unknown, field: string): string | undefined {
    return value === undefined || value === null ? undefined : this.string(value, field);
  }

  hex(value: unknown, field: string, byteLength?: number): string {
    const s = this.string(value, field);
    if (!isHex(s, byteLength)) {
      this.fail(`${field} is not ${byteLength === undefined ? 'hex' : `${byteLength} bytes of hex`}`);
    }
    return s.toLowerCase();
  }

  optionalHex(value: unknown, field: string, byteLength?: number): string | undefined {
    return value === undefined || value === null ? undefined : this.hex(value, field, byteLength);
  }

  integer(value: unknown, field: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      this.fail(`${field} is not an integer in [${min}, ${max}]`);
    }
    return value;
  }

  number(value: unknown, field: string): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(`${field} is not a number`);
    return value;
  }

  boolean(value: unknown, field: string): boolean {
    if (typeof value !== 'boolean') this.fail(`${field} is not a boolean`);
    return value;
  }
}
