import { lastShareText } from '@lodestone/domain';
import { formatLocalDateTime } from '../../../lib/format';

/** The texts of one worker's view (docs/dashboard.md, Workers: "One worker"), as pure rules. */

/** Its last accepted share: the date and time in the browser's zone and how long ago, or that none is recorded. */
export function lastShareDetail(worker: { last_share_at: string | null }, now: string): string {
  if (worker.last_share_at === null) return 'None recorded';
  return `${formatLocalDateTime(Date.parse(worker.last_share_at))} (${lastShareText(worker, now)})`;
}

/** Its group and where the group comes from: the miner's label, or the name's prefix. */
export function groupText(worker: { group: string | null; label: string | null }): string {
  if (worker.group === null) return 'None';
  return worker.label !== null ? `${worker.group} (label)` : `${worker.group} (name prefix)`;
}

export function connectionEventText(event: 'connect' | 'disconnect'): string {
  return event === 'connect' ? 'Connected' : 'Disconnected';
}

/** An optional value of the connection history, "—" when the node did not record it. */
export function orDash(text: string | null): string {
  return text === null || text.trim() === '' ? '—' : text;
}

/**
 * A page's search with one worker's view open (`?worker=12`), or closed: a link the miner can share opens the same
 * worker. Other parameters of the page are kept.
 */
export function workerSearch(search: string, workerId: string | null): string {
  const params = new URLSearchParams(search);
  if (workerId === null) params.delete('worker');
  else params.set('worker', workerId);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** When a connection event happened, in the browser's zone to the second: a reconnect loop happens within a minute. */
export function connectionTimeText(at: string): string {
  const time = Date.parse(at);
  if (!Number.isFinite(time)) return at;
  return `${formatLocalDateTime(time)}:${String(new Date(time).getSeconds()).padStart(2, '0')}`;
}
