import { pageOf } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { countdownText, formatTargetDate, RANKING_PAGE_SIZE, rankedTeams, rankedUsers } from './lottery';
import { LOTTERY_COUNTDOWN, LOTTERY_TARGET_DATE, SAMPLE_TEAMS } from './sampleData';

describe('lottery sample data', () => {
  it('has three teams in positions 1–3 whose totals are the sum of their users', () => {
    expect(rankedTeams(SAMPLE_TEAMS).map((t) => t.position)).toEqual([1, 2, 3]);
    for (const team of SAMPLE_TEAMS) {
      expect(team.totalBlocks).toBe(team.users.reduce((s, u) => s + u.minedBlocks, 0));
    }
  });

  it('has the countdown, target date and prize', () => {
    expect(countdownText(LOTTERY_COUNTDOWN.days, LOTTERY_COUNTDOWN.hours)).toBe('3 days 14 hours');
    expect(countdownText(1, 1)).toBe('1 day 1 hour');
    expect(formatTargetDate(LOTTERY_TARGET_DATE)).toBe('20 January 2025');
  });

  it('ranks users by blocks and pages them 10 at a time', () => {
    const users = rankedUsers([
      { username: 'b', minedBlocks: 2 },
      { username: 'a', minedBlocks: 2 },
      { username: 'c', minedBlocks: 5 },
    ]);
    expect(users.map((u) => u.username)).toEqual(['c', 'a', 'b']);
    const first = SAMPLE_TEAMS.find((t) => t.position === 1);
    const ranked = rankedUsers(first?.users ?? []);
    expect(pageOf(ranked, RANKING_PAGE_SIZE, 1).window.pageCount).toBe(2);
    expect(pageOf(ranked, RANKING_PAGE_SIZE, 2).rows).toHaveLength(ranked.length - 10);
  });
});
