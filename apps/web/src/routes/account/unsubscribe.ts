/**
 * What the unsubscribe page says about the notification a link turns off (docs/notifications.md,
 * "Unsubscribing"). The token names its topic in clear (`{user id}.{topic}.{signature}`), so the page
 * can say which e-mails stop before anything is sent; the server checks the signature. The topics are
 * the server's (services/notifications/unsubscribe.ts TOPIC_PREFERENCE); the titles are the Settings
 * toggles' labels.
 */

export interface UnsubscribeTopicText {
  /** The Settings toggle the link turns off. */
  title: string;
  question: string;
}

const TOPIC_TEXT: Readonly<Record<string, UnsubscribeTopicText>> = {
  'offline-workers': {
    title: 'Offline worker alerts',
    question: 'Stop the e-mails about your workers going offline and coming back online?',
  },
  'monthly-reports': {
    title: 'Monthly reports',
    question: 'Stop the monthly e-mails with your signed PDF statements of last month’s earnings?',
  },
};

/** A topic this page does not know yet (a newer server): still an honest question. */
const ANY_TOPIC: UnsubscribeTopicText = { title: 'E-mail notifications', question: 'Stop these e-mails?' };

/** The text for the topic a token names. */
export function unsubscribeTopicText(token: string): UnsubscribeTopicText {
  const topic = token.split('.')[1] ?? '';
  return Object.hasOwn(TOPIC_TEXT, topic) ? (TOPIC_TEXT[topic] as UnsubscribeTopicText) : ANY_TOPIC;
}
