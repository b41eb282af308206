import { describe, expect, it } from 'vitest';
import { scrollTarget } from './scroll';

describe('scrollTarget', () => {
  it('stops the offset above the section, measured from the top of the page', () => {
    // A section 800 px below the viewport's top while the page is scrolled 200 px: 1000 from the top.
    expect(scrollTarget(800, 200, 50)).toBe(950);
    expect(scrollTarget(800, 200, 70)).toBe(930);
  });

  it('never scrolls above the top of the page', () => {
    expect(scrollTarget(10, 0, 70)).toBe(0);
  });
});
