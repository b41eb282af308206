import { isValidElement } from 'react';
import { createRoutesFromElements, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../AppRoutes';
import { PAGES } from '../pages';
import { REFERRAL_SOURCES } from './sources';

/** The element the site's route table renders at `path` (the deepest match). */
function elementAt(path: string) {
  const table = AppRoutes();
  const routes = createRoutesFromElements(table.props.children);
  const matches = matchRoutes(routes, path) ?? [];
  return matches.at(-1)?.route.element;
}

describe('referral landing routes', () => {
  it('record the six sources, and only them; any other single segment is home', () => {
    for (const source of ['reddit', 'twitter', 'facebook', 'tiktok', 'instagram', 'musk_miners']) {
      const element = elementAt(`/${source}`);
      expect(isValidElement(element) && (element.props as { source?: string }).source, source).toBe(source);
    }
    const other = elementAt('/myspace');
    expect(isValidElement(other) && (other.props as { source?: string }).source).toBeUndefined();
  });

  it('do not collide with a page', () => {
    for (const source of REFERRAL_SOURCES) expect(PAGES.some((p) => p.path.toLowerCase() === source)).toBe(false);
  });
});
