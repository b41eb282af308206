import { describe, expect, it } from 'vitest';
import { failureText } from './PageBoundary';

describe('a page that cannot be shown', () => {
  it('says "offline", not "something went wrong", when the device is offline', () => {
    expect(failureText(true).title).toBe('You are offline');
    expect(failureText(true).text).not.toContain('Something went wrong');
    expect(failureText(false).text).toContain('Something went wrong');
  });
});
