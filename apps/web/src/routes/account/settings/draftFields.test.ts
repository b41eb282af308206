import type { ChangeEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { draftFields } from './draftFields';

interface Draft {
  name: string;
  scope: 'mining' | 'payouts';
  on: boolean;
}

const typed = (value: string) => ({ target: { value } }) as ChangeEvent<HTMLInputElement>;

describe('draftFields', () => {
  it('gives a text key its value, and sends an edit to the form as a change of that key alone', () => {
    const changes: Partial<Draft>[] = [];
    const field = draftFields<Draft>({ name: 'Farm', scope: 'mining', on: true }, (change) => changes.push(change));
    expect(field('name').value).toBe('Farm');
    expect(field('scope').value).toBe('mining');
    field('name').onChange(typed('Hosting farm'));
    field('scope').onChange(typed('payouts'));
    expect(changes).toEqual([{ name: 'Hosting farm' }, { scope: 'payouts' }]);
  });
});
