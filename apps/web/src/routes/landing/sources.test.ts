import { describe, expect, it } from 'vitest';
import { PAGES } from '../pages';
import { REFERRAL_SOURCES } from './sources';

describe('referral landing routes', () => {
  it('are the six of the spec', () => {
    expect(REFERRAL_SOURCES).toEqual(['reddit', 'twitter', 'facebook', 'tiktok', 'instagram', 'musk_miners']);
  });

  it('do not collide with a page', () => {
    for (const source of REFERRAL_SOURCES) expect(PAGES.some((p) => p.path.toLowerCase() === source)).toBe(false);
  });
});
