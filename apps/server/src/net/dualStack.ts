/** The default listening address: every IPv6 and IPv4 address of the machine (a dual-stack socket). */
export const ANY_ADDRESS = '::';

/** Errors of a machine or container without IPv6, where `::` cannot be bound. */
const NO_IPV6 = new Set(['EAFNOSUPPORT', 'EADDRNOTAVAIL', 'EINVAL']);

/**
 * Listens on `host`; where that is `::` and the machine has no IPv6, on every IPv4 address instead,
 * saying so once (a pool must still start on an IPv4-only host). Returns the address it listens on.
 */
export async function listenDualStack(
  host: string,
  listen: (host: string) => Promise<void>,
  warn: (message: string) => void,
): Promise<string> {
  try {
    await listen(host);
    return host;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (host !== ANY_ADDRESS || code === undefined || !NO_IPV6.has(code)) throw error;
    warn(`cannot listen on :: (${code}: no IPv6 here); listening on 0.0.0.0, IPv4 only`);
    await listen('0.0.0.0');
    return '0.0.0.0';
  }
}

/** Where a process reaches its own listener: loopback for a wildcard address. */
export function loopbackFor(host: string): string {
  return host === ANY_ADDRESS || host === '0.0.0.0' ? '127.0.0.1' : host;
}
