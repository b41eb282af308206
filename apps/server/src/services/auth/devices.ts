import Bowser from 'bowser';
import ipaddr from 'ipaddr.js';

/*
 * How the Settings list of sessions names where each one is (docs/accounts.md, "Sessions"): the
 * browser and system read from its User-Agent by Bowser, and the network it was used from — never
 * the full address: a session list is for recognising one's own devices, and an IPv4 /24 or an IPv6
 * /48 (a home or office network) does that without keeping who browsed from which exact address.
 */

/** The longest User-Agent kept; real ones are a few hundred characters. */
export const USER_AGENT_MAX = 512;

/** What the session list stores of a browser: its User-Agent cut to USER_AGENT_MAX, none when empty. */
export function storedUserAgent(header: string | string[] | undefined): string | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value ? value.slice(0, USER_AGENT_MAX) : null;
}

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

/** "Chrome 120 on Windows 10", "Safari on iOS 17.1 (phone)"; "Unknown device" without a User-Agent. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const parser = Bowser.getParser(userAgent);
  const browser = parser.getBrowser();
  const os = parser.getOS();
  const major = browser.version?.split('.')[0];
  const name = browser.name ? `${browser.name}${major ? ` ${major}` : ''}` : 'Unknown browser';
  const system = os.name
    ? ` on ${os.name}${os.versionName ? ` ${os.versionName}` : os.version ? ` ${os.version}` : ''}`
    : '';
  const type = parser.getPlatformType();
  const form = type === 'mobile' ? ' (phone)' : type === 'tablet' ? ' (tablet)' : '';
  return `${name}${system}${form}`;
}
