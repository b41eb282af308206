/**
 * Stratum V1 wire format: newline-delimited JSON-RPC 1.0. This module frames bytes into lines,
 * parses lines into typed requests and serializes answers; it knows nothing about sessions or shares.
 */

/** Stratum V1 error codes (slush's original specification, used by every miner). */
export const StratumError = {
  Other: 20,
  JobNotFound: 21,
  Duplicate: 22,
  LowDifficulty: 23,
  Unauthorized: 24,
  NotSubscribed: 25,
} as const;
export type StratumErrorCode = (typeof StratumError)[keyof typeof StratumError];

export const STRATUM_ERROR_MESSAGES: Record<StratumErrorCode, string> = {
  20: 'Other/Unknown',
  21: 'Job not found (=stale)',
  22: 'Duplicate share',
  23: 'Low difficulty share',
  24: 'Unauthorized worker',
  25: 'Not subscribed',
};

export type RpcId = number | string | null;

// ---------------------------------------------------------------------------------------------
// Framing

export type FramedItem = { kind: 'line'; line: string } | { kind: 'overflow' };

/**
 * Splits a byte stream into lines (LF or CRLF). A line longer than `maxLineBytes` yields one
 * `overflow` and everything up to the next newline is dropped; the caller decides what to do.
 */
export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): FramedItem[] {
    const items: FramedItem[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      const part = chunk.subarray(start, end);
      if (!this.discarding) {
        if (this.pendingBytes + part.length > this.maxLineBytes) {
          this.discarding = true;
          this.pending = [];
          this.pendingBytes = 0;
          items.push({ kind: 'overflow' });
        } else if (part.length > 0) {
          this.pending.push(part);
          this.pendingBytes += part.length;
        }
      }
      if (newline === -1) break;
      if (this.discarding) this.discarding = false;
      else this.emit(items);
      start = newline + 1;
    }
    return items;
  }

  private emit(items: FramedItem[]): void {
    const bytes = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    let line = bytes.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim().length > 0) items.push({ kind: 'line', line });
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

export interface SubscribeRequest {
  method: 'mining.subscribe';
  /** As sent: each dialect reads its own form (agent string, session id, host and port…). */
  params: readonly unknown[];
}
export interface AuthorizeRequest {
  method: 'mining.authorize';
  login: string;
  password: string;
}
export interface SuggestDifficultyRequest {
  method: 'mining.suggest_difficulty';
  difficulty: number;
}
/** Every dialect's submit starts `[worker, jobId, …]`; the rest is the dialect's to read. */
export interface SubmitRequest {
  method: 'mining.submit';
  worker: string;
  jobId: string;
  params: readonly unknown[];
}
/** Any other method: the connection's dialect answers it (mining.configure…) or calls it unknown. */
export interface OtherRequest {
  method: 'other';
  name: string;
  params: readonly unknown[];
}

export type StratumRequest =
  | SubscribeRequest
  | AuthorizeRequest
  | SuggestDifficultyRequest
  | SubmitRequest
  | OtherRequest;

export type ParsedLine =
  | { kind: 'request'; id: RpcId; request: StratumRequest }
  /** A miner's answer to something we sent (e.g. client.get_version); ignored. */
  | { kind: 'response'; id: RpcId }
  /** Not JSON, not an object, or a known method with unusable params; answered with error 20. */
  | { kind: 'invalid'; id: RpcId; reason: string };

const MAX_FIELD = 256;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRpcId(value: unknown): value is RpcId {
  return (
    value === null ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'string' && value.length <= 64)
  );
}

export function shortString(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_FIELD;
}

function optionalString(value: unknown): string | undefined {
  return shortString(value) ? value : undefined;
}

function positiveNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

type ParamsResult = StratumRequest | string;

function parseParams(method: string, params: unknown[]): ParamsResult {
  switch (method) {
    case 'mining.subscribe':
      return { method, params };
    case 'mining.authorize': {
      const [login, password] = params;
      if (!shortString(login)) return 'login must be a string';
      return { method, login, password: optionalString(password) ?? '' };
    }
    case 'mining.suggest_difficulty': {
      const difficulty = positiveNumber(params[0]);
      if (difficulty === undefined) return 'difficulty must be a positive number';
      return { method, difficulty };
    }
    case 'mining.submit': {
      const [worker, jobId] = params;
      if (!shortString(worker) || !shortString(jobId)) return 'worker and job id must be strings';
      if (params.length > 16) return 'too many parameters';
      return { method, worker, jobId, params };
    }
    default:
      return { method: 'other', name: method, params };
  }
}

/** Parses one line. Never throws: anything unusable comes back as `invalid`. */
export function parseLine(line: string): ParsedLine {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { kind: 'invalid', id: null, reason: 'not JSON' };
  }
  if (!isRecord(message)) return { kind: 'invalid', id: null, reason: 'not a JSON object' };
  const id = isRpcId(message.id) ? message.id : null;
  const { method } = message;
  if (method === undefined || method === null) {
    if ('result' in message || 'error' in message) return { kind: 'response', id };
    return { kind: 'invalid', id, reason: 'no method' };
  }
  if (typeof method !== 'string' || method.length > 64)
    return { kind: 'invalid', id, reason: 'method must be a string' };
  const params = message.params ?? [];
  if (!Array.isArray(params)) return { kind: 'invalid', id, reason: 'params must be a list' };
  const request = parseParams(method, params);
  if (typeof request === 'string') return { kind: 'invalid', id, reason: request };
  return { kind: 'request', id, request };
}

// ---------------------------------------------------------------------------------------------
// Serialization (every line ends with a newline)

export function resultLine(id: RpcId, result: unknown): string {
  return `${JSON.stringify({ id, result, error: null })}\n`;
}

export function errorLine(id: RpcId, code: StratumErrorCode, message: string = STRATUM_ERROR_MESSAGES[code]): string {
  return `${JSON.stringify({ id, result: null, error: [code, message, null] })}\n`;
}

export function notificationLine(method: string, params: unknown[]): string {
  return `${JSON.stringify({ id: null, method, params })}\n`;
}
