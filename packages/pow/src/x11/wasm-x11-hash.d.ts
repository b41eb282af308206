// Types for the file of wasm-x11-hash@0.0.2 that x11/wasm.ts loads (the package ships none).

declare module 'wasm-x11-hash/lib/wasm-build/x11-hash-wasm-base64.js' {
  /** The compiled WebAssembly module (Emscripten build of Dash's X11), base64. */
  const wasmBase64: string;
  export default wasmBase64;
}
