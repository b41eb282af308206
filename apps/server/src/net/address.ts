import net from 'node:net';

/**
 * One spelling per client address, so that bans, per-address limits and logs count one address once:
 * `::ffff:1.2.3.4` (IPv4 on a dual-stack socket) → `1.2.3.4`, IPv6 compressed as Node writes it.
 */
export function normalizeAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  if (net.isIPv6(address)) return new net.SocketAddress({ address, family: 'ipv6' }).address;
  return address;
}
