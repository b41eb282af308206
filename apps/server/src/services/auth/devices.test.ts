import { describe, expect, it } from 'vitest';
import { describeDevice, storedUserAgent, USER_AGENT_MAX } from './devices.js';

describe('session devices', () => {
  it('names the browser, its major version and the system', () => {
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 120 on Windows 10');
    expect(
      describeDevice(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17 on iOS 17.1 (phone)');
    expect(describeDevice('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox 128 on Linux',
    );
    expect(describeDevice('curl/8.5.0')).toBe('Unknown browser');
    expect(describeDevice(null)).toBe('Unknown device');
  });

  it('stores a User-Agent trimmed and cut to its limit, none when empty', () => {
    expect(storedUserAgent('  Firefox/128.0 ')).toBe('Firefox/128.0');
    expect(storedUserAgent('x'.repeat(2000))).toHaveLength(USER_AGENT_MAX);
    expect(storedUserAgent(['a', 'b'])).toBe('a');
    expect(storedUserAgent('')).toBeNull();
    expect(storedUserAgent(undefined)).toBeNull();
  });
});
