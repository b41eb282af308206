import { describe, expect, it } from 'vitest';
import { renderPage, textOf } from '../testing/renderPage';
import { periodLabel, TimeRangeSelector } from './TimeRangeSelector';

describe('TimeRangeSelector', () => {
  it('names the periods 24h, 7 days and 30 days', () => {
    expect(periodLabel('24h')).toBe('24h');
    expect(periodLabel('7d')).toBe('7 days');
    expect(periodLabel('30d')).toBe('30 days');
  });

  it('shows the chosen period on its closed button, the list closed', () => {
    const html = renderPage(<TimeRangeSelector value="7d" onSelect={() => undefined} />);
    expect(textOf(html)).toBe('Time range: 7 days');
    expect(html).toContain('aria-expanded="false"');
    expect(html).not.toContain('aria-pressed');
  });
});
