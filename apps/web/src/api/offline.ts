import { useSyncExternalStore } from 'react';
import { OFFLINE_ANSWER_HEADER, offlineAnswerTime } from '../sw/rules';

/**
 * Which answers on screen came from the service worker's cache, not the server (docs/dashboard.md, Installing the
 * dashboard): one entry per URL, with the time the answer was stored; a fresh answer for the URL removes it. The
 * dashboard shows the oldest time while any remain.
 */
const stored = new Map<string, number>();
const listeners = new Set<() => void>();
let oldest: number | null = null;

function changed(): void {
  oldest = stored.size === 0 ? null : Math.min(...stored.values());
  for (const listener of listeners) listener();
}

/** Records where the answer to `url` came from. */
export function noteAnswer(url: string, headers: Headers): void {
  const time = offlineAnswerTime(headers.get(OFFLINE_ANSWER_HEADER));
  if (time === null) {
    if (stored.delete(url)) changed();
  } else if (stored.get(url) !== time) {
    stored.set(url, time);
    changed();
  }
}

/** The session changed: what is on screen is not the new session's. */
export function forgetOfflineAnswers(): void {
  if (stored.size === 0) return;
  stored.clear();
  changed();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The time of the oldest answer on screen that came from the cache, or null when all are fresh. */
export function useOfflineSince(): number | null {
  const snapshot = () => oldest;
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
