import { describe, expect, it } from 'vitest';
import { removeOfflineQuestion, removeWorkerQuestion } from './removal';

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
});
