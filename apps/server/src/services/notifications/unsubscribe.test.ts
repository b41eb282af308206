import { describe, expect, it } from 'vitest';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe.js';

const KEY = 'k'.repeat(43);

describe('unsubscribe tokens', () => {
  it('name one user and one topic, and read back only with the key that signed them', () => {
    const token = unsubscribeToken(KEY, 42n, 'offline-workers');
    expect(token).toMatch(/^42\.offline-workers\.[A-Za-z0-9_-]{43}$/);
    expect(readUnsubscribeToken(KEY, token)).toEqual({ userId: 42n, topic: 'offline-workers' });
    expect(readUnsubscribeToken('x'.repeat(43), token)).toBeUndefined();
  });

  it('refuse another user, an unknown topic and anything malformed', () => {
    const signature = unsubscribeToken(KEY, 42n, 'offline-workers').split('.')[2];
    for (const forged of [
      `43.offline-workers.${signature}`,
      `42.monthly-reports.${signature}`,
      `42.offline-workers.${signature}x`,
      `042.offline-workers.${signature}`,
      '',
      '42.offline-workers',
    ]) {
      expect(readUnsubscribeToken(KEY, forged), forged).toBeUndefined();
    }
  });
});
