import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetOfflineAnswers, noteAnswer } from '../api/offline';
import { OFFLINE_ANSWER_HEADER } from '../sw/rules';
import { OfflineNotice, offlineNoticeText } from './OfflineNotice';

const stored = (iso: string) => new Headers({ [OFFLINE_ANSWER_HEADER]: iso });
const fresh = () => new Headers({ 'content-type': 'application/json' });
const notice = () => renderToString(<OfflineNotice />);

afterEach(() => forgetOfflineAnswers());

describe('offline answers', () => {
  it('says nothing while every answer is fresh', () => {
    noteAnswer('/v1/user/mining', fresh());
    expect(notice()).toBe('');
  });

  it('shows the oldest stored answer, until fresh answers replace them all', () => {
    noteAnswer('/v1/user/mining', stored('2026-11-25T14:05:00Z'));
    noteAnswer('/v1/user/mining/workers', stored('2026-11-25T13:50:00Z'));
    expect(notice()).toContain('Offline — showing data from 2026-11-25 13:50');
    noteAnswer('/v1/user/mining/workers', fresh());
    expect(notice()).toContain('Offline — showing data from 2026-11-25 14:05');
    noteAnswer('/v1/user/mining', fresh());
    expect(notice()).toBe('');
  });

  it('forgets them when the session changes', () => {
    noteAnswer('/v1/user/mining', stored('2026-11-25T14:05:00Z'));
    forgetOfflineAnswers();
    expect(notice()).toBe('');
  });

  it('writes the time in the browser zone, as the site writes dates (the tests run in UTC)', () => {
    expect(offlineNoticeText(Date.UTC(2026, 0, 2, 3, 4))).toBe('Offline — showing data from 2026-01-02 03:04');
  });
});
