/**
 * Whether a failed HTTP request found its pooled connection already closed by the server. A server
 * closes idle keep-alive connections (Node's own after 5 s), and a request sent on one as it closes
 * fails with undici's UND_ERR_SOCKET or ECONNRESET before the server read it. Only a caller whose
 * request may safely run twice may send it again (RpcClientOptions.repeatOnClosedConnection).
 */
export function closedConnection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 6; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
