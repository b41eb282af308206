import { describe, expect, it } from 'vitest';
import { ExtranonceAllocator } from '../extranonce.js';
import type { DialectContext } from './dialect.js';
import { NO_NONCE_SPACE, SessionNonce } from './sessionNonce.js';

function context() {
  const closed: string[] = [];
  const ctx: DialectContext = {
    port: {
      algorithm: 'eaglesong',
      kind: 'standard',
      port: 3363,
      minDifficulty: 1,
      maxDifficulty: 1,
      startDifficulty: 1,
    },
    remoteAddress: '127.0.0.1',
    close: (reason) => closed.push(reason),
  };
  return { ctx, closed };
}

describe('SessionNonce', () => {
  it('takes one prefix on the first claim and keeps it until released', () => {
    const space = new ExtranonceAllocator(7, 1);
    const nonce = new SessionNonce(space);
    const { ctx, closed } = context();
    expect(nonce.value).toBeUndefined();
    expect(() => nonce.subscribed).toThrow('before mining.subscribe');
    const first = nonce.claim(ctx);
    expect(first?.hex).toBe('07');
    expect(nonce.claim(ctx)).toBe(first);
    expect(nonce.subscribed).toBe(first);
    nonce.release();
    expect(nonce.value).toBeUndefined();
    // The released prefix is free again: with every other usable one taken (the allocator keeps one
    // value aside: 255 of 256), the next claim still gets one.
    for (let i = 0; i < 254; i++) space.allocate();
    expect(space.full).toBe(false);
    expect(new SessionNonce(space).claim(ctx)).toBeDefined();
    expect(closed).toEqual([]);
  });

  it('closes the connection when every prefix is taken, and the dialect answers NO_NONCE_SPACE', () => {
    const space = new ExtranonceAllocator(0, 1);
    for (let i = 0; i < 255; i++) space.allocate();
    const { ctx, closed } = context();
    const nonce = new SessionNonce(space);
    expect(nonce.claim(ctx)).toBeUndefined();
    expect(closed).toEqual(['nonce space exhausted']);
    expect(NO_NONCE_SPACE).toEqual({ error: 'Server full: no nonce space left', code: 20 });
  });
});
