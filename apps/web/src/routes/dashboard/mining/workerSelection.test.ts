import { describe, expect, it } from 'vitest';
import {
  labelButton,
  selectedAmong,
  selectionOf,
  sharedLabel,
  toggleSelected,
  withRows,
  workersCount,
} from './workerSelection';

const rows = (...ids: string[]) => ids.map((id) => ({ id }));

describe('worker selection', () => {
  it('toggles one worker in and out without changing the selection it was given', () => {
    const empty = new Set<string>();
    const one = toggleSelected(empty, '7');
    expect([...one]).toEqual(['7']);
    expect(empty.size).toBe(0);
    expect([...toggleSelected(one, '7')]).toEqual([]);
  });

  it('adds or takes out a page or every matching worker at once', () => {
    const some = new Set(['1', '9']);
    expect([...withRows(some, rows('1', '2', '3'), true)].sort()).toEqual(['1', '2', '3', '9']);
    expect([...withRows(some, rows('1', '2', '3'), false)]).toEqual(['9']);
  });

  it('acts only on the selected workers still matching, in the table’s order', () => {
    const selected = new Set(['3', '1', 'gone']);
    expect(selectedAmong(selected, rows('1', '2', '3')).map((r) => r.id)).toEqual(['1', '3']);
    expect(selectedAmong(selected, rows('2'))).toEqual([]);
  });

  it('says whether a page is wholly, partly or not selected', () => {
    expect(selectionOf(new Set(['1', '2']), rows('1', '2'))).toBe('all');
    expect(selectionOf(new Set(['1']), rows('1', '2'))).toBe('some');
    expect(selectionOf(new Set(['5']), rows('1', '2'))).toBe('none');
    expect(selectionOf(new Set(), [])).toBe('none');
  });

  it('starts the label dialog with the label the chosen workers share, else empty', () => {
    expect(sharedLabel([{ label: 'Basement' }, { label: 'Basement' }])).toBe('Basement');
    expect(sharedLabel([{ label: 'Basement' }, { label: null }])).toBe('');
    expect(sharedLabel([{ label: 'a' }, { label: 'b' }])).toBe('');
    expect(sharedLabel([{ label: null }])).toBe('');
    expect(sharedLabel([])).toBe('');
  });

  it('counts workers in words', () => {
    expect(workersCount(1)).toBe('1 worker');
    expect(workersCount(2)).toBe('2 workers');
    expect(workersCount(10_000)).toBe('10,000 workers');
  });

  it('offers to save a typed label, and to remove labels only when a chosen worker has one', () => {
    expect(labelButton('Basement', [{ label: null }])).toEqual({ text: 'Save label', off: false });
    expect(labelButton('  ', [{ label: null }, { label: 'Basement' }])).toEqual({ text: 'Remove label', off: false });
    expect(labelButton('', [{ label: null }])).toEqual({ text: 'Remove label', off: true });
  });
});
