import { describe, expect, it } from 'vitest';
import { removeOfflineQuestion, removeSelectedQuestion, removeWorkerQuestion } from './removal';

describe('the removal confirmations', () => {
  it('name the worker and say what removal does', () => {
    const question = removeWorkerQuestion('rig1');
    expect(question.title).toBe('Remove worker rig1?');
    expect(question.text).toContain('statistics are deleted');
    expect(question.text).toContain('comes back as a new worker when it mines again');
  });

  it('count the offline workers when the summary is known', () => {
    expect(removeOfflineQuestion(3).title).toBe('Remove 3 offline workers?');
    expect(removeOfflineQuestion(1).title).toBe('Remove 1 offline worker?');
    expect(removeOfflineQuestion(1234).title).toBe('Remove 1,234 offline workers?');
    expect(removeOfflineQuestion(undefined).title).toBe('Remove every offline worker?');
    expect(removeOfflineQuestion(0).title).toBe('Remove every offline worker?');
    expect(removeOfflineQuestion(2).text).toContain('statistics');
  });

  it('count and name the selected workers, the first five of a long selection', () => {
    expect(removeSelectedQuestion(['rig1'])).toEqual(removeWorkerQuestion('rig1'));
    const two = removeSelectedQuestion(['rack1-a', 'rack1-b']);
    expect(two.title).toBe('Remove 2 selected workers?');
    expect(two.text).toMatch(/^rack1-a, rack1-b: their statistics are deleted/);
    const many = removeSelectedQuestion(Array.from({ length: 1200 }, (_, i) => `w${i + 1}`));
    expect(many.title).toBe('Remove 1,200 selected workers?');
    expect(many.text).toMatch(/^w1, w2, w3, w4, w5 and 1,195 more: /);
  });
});
