import { randomInt } from 'node:crypto';

/** Bytes of extranonce1 per session; extranonce2 gets the rest of the job's extranonce space. */
export const EXTRANONCE1_SIZE = 4;

export interface Extranonce1 {
  value: number;
  bytes: Uint8Array;
  hex: string;
}

/**
 * Hands out a unique 4-byte extranonce1 to each open session of this process. A counter starting at
 * a random value walks the 2^32 space, so a value freed by a closed session is not reused soon.
 */
export class ExtranonceAllocator {
  private readonly inUse = new Set<number>();
  private next: number;

  /** `start`: the first value to try (default random; replayed sessions fix it). */
  constructor(start = randomInt(0, 2 ** 32 - 1)) {
    this.next = start >>> 0;
  }

  allocate(): Extranonce1 {
    if (this.inUse.size >= 2 ** 32 - 1) throw new Error('extranonce1 space exhausted');
    let value = this.next;
    while (this.inUse.has(value)) value = (value + 1) >>> 0;
    this.inUse.add(value);
    this.next = (value + 1) >>> 0;
    const bytes = Buffer.alloc(EXTRANONCE1_SIZE);
    bytes.writeUInt32BE(value);
    return { value, bytes, hex: bytes.toString('hex') };
  }

  release(extranonce1: Extranonce1): void {
    this.inUse.delete(extranonce1.value);
  }

  get size(): number {
    return this.inUse.size;
  }
}
