/**
 * The Lottery page's static sample data (docs/website.md, Lottery and Sats4Soup). The
 * lottery is a marketing page; these teams, users and counts are illustrations the page labels as
 * samples, not figures of this pool. Operators running a real lottery replace this file.
 */

export interface LotteryUser {
  username: string;
  minedBlocks: number;
}

export interface LotteryTeam {
  name: string;
  totalBlocks: number;
  /** 1–3. */
  position: 1 | 2 | 3;
  users: LotteryUser[];
}

export interface GraphSeries {
  name: string;
  points: { day: string; minedBlocks: number }[];
}

/** The countdown's target date and its static display, and the prize. */
export const LOTTERY_TARGET_DATE = '2025-01-20';
export const LOTTERY_COUNTDOWN = { days: 3, hours: 14 } as const;
export const LOTTERY_PRIZE = '1 Bitcoin';

const users = (prefix: string, counts: number[]): LotteryUser[] =>
  counts.map((minedBlocks, i) => ({ username: `${prefix}${String(i + 1).padStart(2, '0')}`, minedBlocks }));

const team = (name: string, position: LotteryTeam['position'], members: LotteryUser[]): LotteryTeam => ({
  name,
  position,
  // A team's total is its members' blocks, so the card and the list always agree.
  totalBlocks: members.reduce((sum, u) => sum + u.minedBlocks, 0),
  users: members,
});

export const SAMPLE_TEAMS: readonly LotteryTeam[] = [
  team('Team Granite', 1, users('granite_miner', [9, 8, 6, 5, 4, 4, 3, 2, 2, 1, 1, 1])),
  team('Team Basalt', 2, users('basalt_rig', [8, 7, 5, 4, 3, 3, 2, 1])),
  team('Team Quartz', 3, users('quartz_hash', [7, 6, 4, 3, 3, 2, 1])),
];

const DAYS = ['Jan 6', 'Jan 7', 'Jan 8', 'Jan 9', 'Jan 10', 'Jan 11', 'Jan 12', 'Jan 13', 'Jan 14', 'Jan 15', 'Jan 16'];
const series = (name: string, perDay: number[]): GraphSeries => ({
  name,
  points: perDay.map((minedBlocks, i) => ({ day: DAYS[i] ?? `Day ${i + 1}`, minedBlocks })),
});

export const SAMPLE_GRAPH: readonly GraphSeries[] = [
  series('Team Granite', [3, 5, 4, 6, 4, 5, 3, 4, 3, 5, 4]),
  series('Team Basalt', [2, 4, 3, 3, 5, 2, 4, 2, 3, 2, 3]),
  series('Team Quartz', [1, 3, 2, 4, 2, 3, 2, 3, 2, 2, 2]),
];

export interface FeedCard {
  title: string;
  username: string;
}

/** The Feed is a grid of 8 placeholder video cards. */
export const SAMPLE_FEED: readonly FeedCard[] = [
  { title: 'Unboxing our new rack', username: 'granite_miner01' },
  { title: 'Cooling 40 machines in summer', username: 'basalt_rig02' },
  { title: 'Our first block of the week', username: 'quartz_hash01' },
  { title: 'Firmware tuning for efficiency', username: 'granite_miner03' },
  { title: 'Farm tour: the night shift', username: 'basalt_rig01' },
  { title: 'Immersion tank build, part 1', username: 'quartz_hash04' },
  { title: 'Team Basalt strategy talk', username: 'basalt_rig05' },
  { title: 'How we track every share', username: 'granite_miner02' },
];
