import { describe, expect, it } from 'vitest';
import { countTestIds, renderPage, textOf } from '../../testing/renderPage';
import LotteryPage from './LotteryPage';
import { SAMPLE_GRAPH, SAMPLE_TEAMS } from './sampleData';

describe('lottery page', () => {
  const html = renderPage(<LotteryPage />);
  const text = textOf(html);

  it('announces the prize and the draw day', () => {
    expect(text).toContain('1 Bitcoin');
    expect(html).toContain('dateTime="2025-01-20"');
    expect(text).toContain('20 January 2025');
  });

  it('ranks three teams, ten players a page, and shows eight feed cards', () => {
    for (const position of [1, 2, 3]) expect(countTestIds(html, `team-${position}`)).toBe(1);
    // The first page of each team's ranking: at most 10 players.
    const firstPages = SAMPLE_TEAMS.reduce((sum, team) => sum + Math.min(10, team.users.length), 0);
    expect(SAMPLE_TEAMS.some((team) => team.users.length > 10)).toBe(true);
    expect(countTestIds(html, 'team-user')).toBe(firstPages);
    expect(text).toMatch(/# Username Blocks 1 \S+ \d+ 2 \S+ \d+/);
    expect(countTestIds(html, 'feed-card')).toBe(8);
  });

  it('lists the graph’s figures for screen readers: a column per team, a row per day', () => {
    expect(text).toContain('Mined blocks per day and team Day Team Granite Team Basalt Team Quartz');
    const days = SAMPLE_GRAPH[0]?.points ?? [];
    expect(days.length).toBeGreaterThan(0);
    expect(html.split('scope="row"').length - 1).toBe(days.length);
    const first = SAMPLE_GRAPH.map((team) => team.points[0]?.minedBlocks).join(' ');
    expect(text).toContain(`Team Quartz ${days[0]?.day} ${first}`);
  });
});
