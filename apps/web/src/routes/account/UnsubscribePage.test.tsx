import { describe, expect, it } from 'vitest';
import { renderPage, textOf } from '../../testing/renderPage';
import UnsubscribePage from './UnsubscribePage';
import { unsubscribeTopicText } from './unsubscribe';

const SIGNATURE = 'A'.repeat(43);
const page = (token: string) =>
  textOf(renderPage(<UnsubscribePage />, { path: `/unsubscribe?token=${encodeURIComponent(token)}` }));

describe('unsubscribe page', () => {
  it('names the notification the link turns off, by the topic its token carries', () => {
    const reports = page(`7.monthly-reports.${SIGNATURE}`);
    expect(reports).toContain('Monthly reports');
    expect(reports).toContain('Stop the monthly e-mails with your signed PDF statements of last month’s earnings?');
    expect(reports).not.toContain('Offline worker alerts');
    const alerts = page(`7.offline-workers.${SIGNATURE}`);
    expect(alerts).toContain('Offline worker alerts');
    expect(alerts).toContain('Stop the e-mails about your workers going offline and coming back online?');
    expect(alerts).not.toContain('Monthly reports');
  });

  it('asks plainly about a topic it does not know, and says when the link is not complete', () => {
    expect(unsubscribeTopicText(`7.weekly-digest.${SIGNATURE}`)).toEqual({
      title: 'E-mail notifications',
      question: 'Stop these e-mails?',
    });
    expect(unsubscribeTopicText('garbage').title).toBe('E-mail notifications');
    expect(unsubscribeTopicText(`7.constructor.${SIGNATURE}`).title).toBe('E-mail notifications');
    expect(textOf(renderPage(<UnsubscribePage />, { path: '/unsubscribe' }))).toContain(
      'This unsubscribe link is not complete.',
    );
  });
});
