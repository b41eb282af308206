import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { paths } from './paths.js';
import { routes } from './routes.js';

describe('the path table', () => {
  it('is the route table without its schemas: the same calls, methods and paths', () => {
    expect(Object.keys(routes).sort()).toEqual(Object.keys(paths).sort());
    for (const [name, route] of Object.entries(routes)) {
      const entry = paths[name as keyof typeof paths];
      expect({ method: route.method, path: route.path }, name).toEqual(entry);
    }
  });

  it("names in each path exactly the parameters the route's schema takes", () => {
    for (const [name, route] of Object.entries(routes)) {
      const inPath = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      const params = 'params' in route ? (route.params as z.ZodObject) : undefined;
      expect(params ? Object.keys(params.shape).sort() : [], name).toEqual(inPath);
    }
  });

  it('writes each call once: no two entries share a method and path', () => {
    const keys = Object.values(paths).map((p) => `${p.method} ${p.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
