/**
 * Why a daemon call failed:
 * - `rpc`: the daemon answered with a JSON-RPC error (`rpcCode`, message from the daemon);
 * - `unreachable`: connection refused, reset, DNS failure — nothing usable came back;
 * - `timeout`: no complete answer within the time allowed;
 * - `auth`: HTTP 401/403, the credentials or rpcallowip are wrong;
 * - `http`: another HTTP status without a JSON-RPC body;
 * - `malformed`: a reply that is not the JSON-RPC shape or not the shape the method returns.
 */
export type RpcErrorKind = 'rpc' | 'unreachable' | 'timeout' | 'auth' | 'http' | 'malformed';

/** Bitcoin Core RPC codes that mean "this daemon cannot serve mining right now" (src/rpc/protocol.h). */
export const RPC_CLIENT_NOT_CONNECTED = -9;
export const RPC_CLIENT_IN_INITIAL_DOWNLOAD = -10;
export const RPC_IN_WARMUP = -28;
export const RPC_METHOD_NOT_FOUND = -32601;

export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly kind: RpcErrorKind;
  /** The JSON-RPC error code when kind is `rpc`. */
  readonly rpcCode: number | undefined;
  /** HTTP status when one was received. */
  readonly status: number | undefined;
  readonly method: string;
  /** The daemon's URL without credentials. */
  readonly daemon: string;

  constructor(
    kind: RpcErrorKind,
    message: string,
    details: { method: string; daemon: string; rpcCode?: number; status?: number; cause?: unknown },
  ) {
    super(`${details.daemon} ${details.method}: ${message}`, { cause: details.cause });
    this.kind = kind;
    this.rpcCode = details.rpcCode;
    this.status = details.status;
    this.method = details.method;
    this.daemon = details.daemon;
  }

  /**
   * True when another daemon of the same coin might well succeed: anything but a JSON-RPC error, which
   * is the daemon's considered answer — except "not connected", "in initial download" and "warming up".
   */
  get daemonUnavailable(): boolean {
    if (this.kind !== 'rpc') return true;
    return (
      this.rpcCode === RPC_CLIENT_NOT_CONNECTED ||
      this.rpcCode === RPC_CLIENT_IN_INITIAL_DOWNLOAD ||
      this.rpcCode === RPC_IN_WARMUP
    );
  }
}

/** Every configured daemon failed; `errors` holds each one's reason in order. */
export class AllDaemonsFailedError extends Error {
  override readonly name = 'AllDaemonsFailedError';
  constructor(
    readonly method: string,
    readonly errors: readonly RpcError[],
  ) {
    super(`${method}: no daemon could answer (${errors.map((e) => e.message).join('; ')})`);
  }
}
