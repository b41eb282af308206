import net from 'node:net';
import ipaddr from 'ipaddr.js';

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

/*
 * Where a client is, as the lists a miner reads show it (Settings' sessions, a worker's connection
 * history): the network, never the full address — an IPv4 /24 or an IPv6 /48 (a home, office or farm
 * network) is enough to recognise one's own, without keeping who connected from which exact address.
 */

/** The network of an address: "203.0.113.0/24", "2001:db8:85a3::/48"; null for what is not an address. */
export function ipRange(address: string | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  // An IPv4 client seen through an IPv6 socket (::ffff:203.0.113.7) is the IPv4 network.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const bits = parsed.kind() === 'ipv4' ? 24 : 48;
  const network = ipaddr.fromByteArray(maskBytes(parsed.toByteArray(), bits));
  return `${network.toString()}/${bits}`;
}

function maskBytes(bytes: number[], bits: number): number[] {
  return bytes.map((byte, i) => {
    const kept = Math.min(8, Math.max(0, bits - i * 8));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
}
