import { randomInt } from 'node:crypto';

/** Bytes of extranonce1 per session; extranonce2 gets the rest of the job's extranonce space. */
export const EXTRANONCE1_SIZE = 4;

export interface Extranonce1 {
  value: number;
  bytes: Uint8Array;
  hex: string;
}

/**
 * Hands out a unique extranonce1 to each open session of this process: 4 bytes by default, 2 bytes
 * for Kaspa (whose miners keep 6 of the 8 nonce bytes for themselves). A counter starting at a
 * random value walks the space, so a value freed by a closed session is not reused soon.
 */
export class ExtranonceAllocator {
  private readonly inUse = new Set<number>();
  private readonly space: number;
  private next: number;

  /**
   * `start`: the first value to try (default random; replayed sessions fix it). `width`: bytes of
   * each extranonce1 (default EXTRANONCE1_SIZE).
   */
  constructor(
    start?: number,
    readonly width: number = EXTRANONCE1_SIZE,
  ) {
    if (!Number.isInteger(width) || width < 1 || width > 4) throw new RangeError(`extranonce1 of ${width} bytes`);
    this.space = 2 ** (8 * width);
    this.next = start === undefined ? randomInt(0, this.space - 1) : (start >>> 0) % this.space;
  }

  /** Throws when every value is in use (check `full` first to refuse a session instead). */
  allocate(): Extranonce1 {
    if (this.full) throw new Error('extranonce1 space exhausted');
    let value = this.next;
    while (this.inUse.has(value)) value = (value + 1) % this.space;
    this.inUse.add(value);
    this.next = (value + 1) % this.space;
    const bytes = Buffer.alloc(this.width);
    bytes.writeUIntBE(value, 0, this.width);
    return { value, bytes, hex: bytes.toString('hex') };
  }

  /** True when no value is free. */
  get full(): boolean {
    return this.inUse.size >= this.space - 1;
  }

  release(extranonce1: Extranonce1): void {
    this.inUse.delete(extranonce1.value);
  }

  get size(): number {
    return this.inUse.size;
  }
}
