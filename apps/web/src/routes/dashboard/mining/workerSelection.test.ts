import { describe, expect, it } from 'vitest';
import {
  labelButton,
  NO_SELECTION,
  type Selection,
  selectionOf,
  sharedLabel,
  toggleSelected,
  withRows,
  workersCount,
} from './workerSelection';

const chosen = (...ids: string[]) => ids.map((id) => ({ id, name: `rig${id}`, label: null }));
const selection = (...ids: string[]): Selection => withRows(NO_SELECTION, chosen(...ids), true);
const ids = (selected: Selection) => [...selected.keys()].sort();

describe('worker selection', () => {
  it('toggles one worker in and out without changing the selection it was given', () => {
    const [seven] = chosen('7');
    if (!seven) throw new Error('no worker');
    const one = toggleSelected(NO_SELECTION, seven);
    expect(ids(one)).toEqual(['7']);
    expect(one.get('7')).toEqual({ id: '7', name: 'rig7', label: null });
    expect(NO_SELECTION.size).toBe(0);
    expect(ids(toggleSelected(one, seven))).toEqual([]);
  });

  it('adds or takes out a page or every matching worker at once, keeping what the actions name', () => {
    const some = selection('1', '9');
    expect(ids(withRows(some, chosen('1', '2', '3'), true))).toEqual(['1', '2', '3', '9']);
    expect(ids(withRows(some, chosen('1', '2', '3'), false))).toEqual(['9']);
    expect([...withRows(some, chosen('2'), true).values()].map((w) => w.name)).toEqual(['rig1', 'rig9', 'rig2']);
  });

  it('says whether a page is wholly, partly or not selected', () => {
    expect(selectionOf(selection('1', '2'), chosen('1', '2'))).toBe('all');
    expect(selectionOf(selection('1'), chosen('1', '2'))).toBe('some');
    expect(selectionOf(selection('5'), chosen('1', '2'))).toBe('none');
    expect(selectionOf(NO_SELECTION, [])).toBe('none');
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
