/** A bounds-checked cursor over serialized bytes; every overrun is a ParseError, never an exception from Buffer. */
export class ParseError extends Error {
  override readonly name = 'ParseError';
}

export class ByteReader {
  private offset = 0;
  private readonly buf: Buffer;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.buf.length - this.offset;
  }

  private need(n: number, what: string): void {
    if (n < 0 || this.offset + n > this.buf.length) {
      throw new ParseError(`unexpected end of data reading ${what} at byte ${this.offset}`);
    }
  }

  bytes(n: number, what = 'bytes'): Buffer {
    this.need(n, what);
    const out = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  uint8(what = 'byte'): number {
    this.need(1, what);
    const v = this.buf.readUInt8(this.offset);
    this.offset += 1;
    return v;
  }

  peekUint8(at = 0): number | undefined {
    return this.offset + at < this.buf.length ? this.buf.readUInt8(this.offset + at) : undefined;
  }

  uint32(what = 'uint32'): number {
    this.need(4, what);
    const v = this.buf.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }

  int32(what = 'int32'): number {
    this.need(4, what);
    const v = this.buf.readInt32LE(this.offset);
    this.offset += 4;
    return v;
  }

  uint64(what = 'uint64'): bigint {
    this.need(8, what);
    const v = this.buf.readBigUInt64LE(this.offset);
    this.offset += 8;
    return v;
  }

  /** CompactSize; refuses non-canonical encodings and sizes beyond what is left to read (when asked). */
  varInt(what = 'varint'): number {
    const first = this.uint8(what);
    let v: number;
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      this.need(2, what);
      v = this.buf.readUInt16LE(this.offset);
      this.offset += 2;
      if (v < 0xfd) throw new ParseError(`non-canonical ${what}`);
    } else if (first === 0xfe) {
      v = this.uint32(what);
      if (v <= 0xffff) throw new ParseError(`non-canonical ${what}`);
    } else {
      const big = this.uint64(what);
      if (big <= 0xffffffffn) throw new ParseError(`non-canonical ${what}`);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new ParseError(`${what} too large`);
      v = Number(big);
    }
    return v;
  }

  varBytes(what = 'bytes'): Buffer {
    const n = this.varInt(`${what} length`);
    return this.bytes(n, what);
  }

  slice(start: number, end: number): Buffer {
    return this.buf.subarray(start, end);
  }
}
