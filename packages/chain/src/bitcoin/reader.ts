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

  /** Moves past the next `n` bytes and returns where they start. */
  private take(n: number, what: string): number {
    if (n < 0 || this.offset + n > this.buf.length) {
      throw new ParseError(`unexpected end of data reading ${what} at byte ${this.offset}`);
    }
    const at = this.offset;
    this.offset += n;
    return at;
  }

  bytes(n: number, what = 'bytes'): Buffer {
    const at = this.take(n, what);
    return this.buf.subarray(at, at + n);
  }

  uint8(what = 'byte'): number {
    return this.buf.readUInt8(this.take(1, what));
  }

  peekUint8(at = 0): number | undefined {
    return this.offset + at < this.buf.length ? this.buf.readUInt8(this.offset + at) : undefined;
  }

  uint32(what = 'uint32'): number {
    return this.buf.readUInt32LE(this.take(4, what));
  }

  int32(what = 'int32'): number {
    return this.buf.readInt32LE(this.take(4, what));
  }

  uint64(what = 'uint64'): bigint {
    return this.buf.readBigUInt64LE(this.take(8, what));
  }

  /** CompactSize; refuses non-canonical encodings and sizes beyond what is left to read (when asked). */
  varInt(what = 'varint'): number {
    const first = this.uint8(what);
    let v: number;
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      v = this.buf.readUInt16LE(this.take(2, what));
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
