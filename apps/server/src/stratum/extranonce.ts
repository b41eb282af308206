import { randomInt } from 'node:crypto';

/** Bytes of extranonce1 per session; extranonce2 gets the rest of the job's extranonce space. */
export const EXTRANONCE1_SIZE = 4;

export interface Extranonce1 {
  value: number;
  bytes: Uint8Array;
  hex: string;
}

/**
 * Hands out a unique extranonce1 (4 bytes unless `bytes` says otherwise: Kadena's nonce1 is 2) to each
 * open session of this process. A counter starting at a random value walks the space, so a value
 * freed by a closed session is not reused soon.
 */
export class ExtranonceAllocator {
  private readonly inUse = new Set<number>();
  private readonly space: number;
  private next: number;

  /** `start`: the first value to try (default random; replayed sessions fix it). `bytes`: its size, 1 to 4. */
  constructor(
    start?: number,
    readonly bytes: number = EXTRANONCE1_SIZE,
  ) {
    if (!Number.isInteger(bytes) || bytes < 1 || bytes > 4) throw new RangeError(`extranonce1 of ${bytes} bytes`);
    this.space = 2 ** (8 * bytes);
    this.next = start === undefined ? randomInt(0, this.space - 1) : (start >>> 0) % this.space;
  }

  allocate(): Extranonce1 {
    if (this.inUse.size >= this.space - 1) throw new Error('extranonce1 space exhausted');
    let value = this.next;
    while (this.inUse.has(value)) value = (value + 1) % this.space;
    this.inUse.add(value);
    this.next = (value + 1) % this.space;
    const bytes = Buffer.alloc(this.bytes);
    bytes.writeUIntBE(value, 0, this.bytes);
    return { value, bytes, hex: bytes.toString('hex') };
  }

  release(extranonce1: Extranonce1): void {
    this.inUse.delete(extranonce1.value);
  }

  /** Extranonce1 values in use. */
  get size(): number {
    return this.inUse.size;
  }
}
