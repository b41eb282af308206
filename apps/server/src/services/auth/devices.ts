import Bowser from 'bowser';

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
