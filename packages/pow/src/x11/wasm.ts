/**
 * X11 through the WebAssembly build of Dash's C implementation shipped by `wasm-x11-hash` (dashevo,
 * MIT), pinned to exactly 0.0.2 in package.json because this loader depends on that build.
 *
 * Only the package's compiled module is used (`lib/wasm-build/x11-hash-wasm-base64.js`, a base64
 * string); its Emscripten JavaScript glue is not: the glue starts asynchronously, allocates two buffers
 * per call, and reads CommonJS globals (`__dirname`) that do not exist once bundled as an ES module.
 * Instead the module is instantiated synchronously here with the four imports it declares, set up as
 * that glue does (x11-hash.js of 0.0.2):
 *   env.memory  16 MiB, not growable (INITIAL_MEMORY = 16777216)
 *   env.a       emscripten_resize_heap: cannot grow → error
 *   env.b       emscripten_memcpy_big(dest, src, n): HEAPU8.copyWithin(dest, src, src + n)
 *   env.c       emscripten_get_heap_size: HEAPU8.length
 *   and the malloc heap top: HEAP32[DYNAMICTOP_PTR >> 2] = DYNAMIC_BASE (29024 and 5272096)
 * Exports used: d = create_buffer (malloc), e = destroy_buffer (free), f = digest(in, out, length).
 * x11.test.ts re-reads these constants from the installed glue, so another build fails the tests.
 *
 * Nothing is fetched or read from disk. The runtime is created on first use and checked there against
 * Dash's mainnet genesis header: a broken build fails loudly instead of producing wrong hashes.
 */
/// <reference path="./wasm-x11-hash.d.ts" />
import wasmBase64 from 'wasm-x11-hash/lib/wasm-build/x11-hash-wasm-base64.js';

export const X11_WASM_LAYOUT = Object.freeze({
  memoryBytes: 16777216,
  dynamicTopPointer: 29024,
  dynamicBase: 5272096,
});

/** The constructors used, typed here so the package does not depend on the DOM lib's WebAssembly types. */
interface WebAssemblyApi {
  Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

interface X11Runtime {
  heap: Uint8Array;
  digest(input: number, output: number, length: number): void;
  alloc(size: number): number;
  free(pointer: number): void;
  input: number;
  inputCapacity: number;
  output: number;
}

let runtime: X11Runtime | undefined;

// Dash mainnet genesis (dashpay/dash src/chainparams.cpp): header and its X11 hash, internal byte order.
const SELF_TEST_HEADER =
  '010000000000000000000000000000000000000000000000000000000000000000000000c762a6567f3cc092f0684bb62b7e00a84890b990f07cc71a6bb58d64b98e02e0022ddb52f0ff0f1ec23fb901';
const SELF_TEST_HASH = 'b67a40f3cd5804437a108f105533739c37e6229bc1adcab385140b59fd0f0000';

function exportedFunction<T>(exports: Record<string, unknown>, name: string): T {
  const value = exports[name];
  if (typeof value !== 'function') throw new Error(`x11: the wasm-x11-hash module has no export "${name}"`);
  return value as T;
}

function start(): X11Runtime {
  const { memoryBytes, dynamicTopPointer, dynamicBase } = X11_WASM_LAYOUT;
  const memory = new wasm.Memory({ initial: memoryBytes / 65536, maximum: memoryBytes / 65536 });
  const heap = new Uint8Array(memory.buffer);
  new DataView(memory.buffer).setInt32(dynamicTopPointer, dynamicBase, true);
  const env = {
    memory,
    a: (requested: number) => {
      throw new Error(`x11: the wasm heap cannot grow to ${requested >>> 0} bytes`);
    },
    b: (dest: number, src: number, count: number) => {
      heap.copyWithin(dest, src, src + count);
    },
    c: () => heap.length,
  };
  const module = new wasm.Module(Buffer.from(wasmBase64, 'base64'));
  const { exports } = new wasm.Instance(module, { env });
  const alloc = exportedFunction<(size: number) => number>(exports, 'd');
  const rt: X11Runtime = {
    heap,
    alloc,
    free: exportedFunction<(pointer: number) => void>(exports, 'e'),
    digest: exportedFunction<(input: number, output: number, length: number) => void>(exports, 'f'),
    input: alloc(256),
    inputCapacity: 256,
    output: alloc(32),
  };
  const check = x11With(rt, Buffer.from(SELF_TEST_HEADER, 'hex'));
  if (Buffer.from(check).toString('hex') !== SELF_TEST_HASH) {
    throw new Error('x11: the wasm-x11-hash module fails the Dash genesis self-test');
  }
  return rt;
}

function x11With(rt: X11Runtime, data: Uint8Array): Uint8Array {
  if (data.length > rt.inputCapacity) {
    rt.free(rt.input);
    rt.inputCapacity = Math.max(data.length, 2 * rt.inputCapacity);
    rt.input = rt.alloc(rt.inputCapacity);
  }
  rt.heap.set(data, rt.input);
  rt.digest(rt.input, rt.output, data.length);
  return rt.heap.slice(rt.output, rt.output + 32);
}

/** X11 (blake → bmw → groestl → skein → jh → keccak → luffa → cubehash → shavite → simd → echo, first 32 bytes) of any input. */
export function x11Digest(data: Uint8Array): Uint8Array {
  runtime ??= start();
  return x11With(runtime, data);
}
