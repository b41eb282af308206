import type { LotteryTeam, LotteryUser } from './sampleData';

/** The ranking's user lists show 10 users a page (docs/website.md, Lists, refresh and copying). */
export const RANKING_PAGE_SIZE = 10;

export const MEDALS = {
  1: { label: 'Gold' },
  2: { label: 'Silver' },
  3: { label: 'Bronze' },
} as const;

/** Teams by position (1 first). */
export function rankedTeams(teams: readonly LotteryTeam[]): LotteryTeam[] {
  return [...teams].sort((a, b) => a.position - b.position);
}

/** A team's users, most blocks first (ties by name, so the order is stable). */
export function rankedUsers(users: readonly LotteryUser[]): LotteryUser[] {
  return [...users].sort((a, b) => b.minedBlocks - a.minedBlocks || a.username.localeCompare(b.username));
}

/** "3 days 14 hours" */
export function countdownText(days: number, hours: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(days, 'day')} ${plural(hours, 'hour')}`;
}

/** "20 January 2025" from "2025-01-20", whatever the visitor's time zone. */
export function formatTargetDate(isoDay: string): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}
