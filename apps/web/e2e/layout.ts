import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The widths every screen is checked at: a laptop and a phone. */
export const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 800 },
  { name: 'phone', width: 375, height: 800 },
] as const;

/** The page scrolls no wider than the screen, and every element named is inside it (and not empty). */
export async function expectFits(page: Page, width: number, elements: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const boxes = await elements.evaluateAll((all) =>
    all.map((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, width: r.width };
    }),
  );
  expect(boxes.length).toBeGreaterThan(0);
  for (const box of boxes) {
    expect(box.width).toBeGreaterThan(0);
    expect(box.left).toBeGreaterThanOrEqual(-0.5);
    expect(box.right).toBeLessThanOrEqual(width + 0.5);
  }
}
