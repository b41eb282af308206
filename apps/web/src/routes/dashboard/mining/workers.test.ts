import { describe, expect, it } from 'vitest';
import { nextSort } from './workers';

describe('workers table', () => {
  it('sorts ascending first, then toggles; a new column starts ascending again', () => {
    const first = nextSort(null, 'name');
    expect(first).toEqual({ column: 'name', direction: 'asc' });
    const second = nextSort(first, 'name');
    expect(second).toEqual({ column: 'name', direction: 'desc' });
    expect(nextSort(second, 'name')).toEqual({ column: 'name', direction: 'asc' });
    expect(nextSort(second, 'accepted')).toEqual({ column: 'accepted', direction: 'asc' });
  });
});
