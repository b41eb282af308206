import { describe, expect, it } from 'vitest';
import { KIND_TOPIC, readUnsubscribeToken, TOPIC_PREFERENCE, unsubscribeToken } from './unsubscribe.js';

const KEY = 'k'.repeat(43);

describe('unsubscribe tokens', () => {
  it('name one user and one topic, and read back only with the key that signed them', () => {
    const token = unsubscribeToken(KEY, 42n, 'offline-workers');
    expect(token).toMatch(/^42\.offline-workers\.[A-Za-z0-9_-]{43}$/);
    expect(readUnsubscribeToken(KEY, token)).toEqual({ userId: 42n, topic: 'offline-workers' });
    expect(readUnsubscribeToken('x'.repeat(43), token)).toBeUndefined();
    const reports = unsubscribeToken(KEY, 42n, 'monthly-reports');
    expect(reports).toMatch(/^42\.monthly-reports\.[A-Za-z0-9_-]{43}$/);
    expect(readUnsubscribeToken(KEY, reports)).toEqual({ userId: 42n, topic: 'monthly-reports' });
  });

  it('give every kind of message a topic whose link turns its toggle off', () => {
    expect(KIND_TOPIC).toEqual({
      'worker-offline': 'offline-workers',
      'worker-online': 'offline-workers',
      'monthly-report': 'monthly-reports',
    });
    expect(TOPIC_PREFERENCE).toEqual({
      'offline-workers': 'offline_worker_notification',
      'monthly-reports': 'send_monthly_reports',
    });
  });

  it('refuse another user, another or an unknown topic and anything malformed', () => {
    const signature = unsubscribeToken(KEY, 42n, 'offline-workers').split('.')[2];
    for (const forged of [
      `43.offline-workers.${signature}`,
      `42.monthly-reports.${signature}`,
      `42.weekly-digest.${signature}`,
      `42.offline-workers.${signature}x`,
      `042.offline-workers.${signature}`,
      '',
      '42.offline-workers',
    ]) {
      expect(readUnsubscribeToken(KEY, forged), forged).toBeUndefined();
    }
  });
});
