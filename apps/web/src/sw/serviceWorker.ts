/**
 * The service worker, served as /sw.js: built by serviceWorkerPlugin.ts into one classic script, with the build's
 * version and the files it stores at install written in (docs/dashboard.md, Installing the dashboard). What to do
 * with a request is decided by rules.ts; this file only carries it out. Hand-written, not Workbox: four strategies
 * do not need a library, and the site's page weight stays what it is.
 */
import {
  apiCaches,
  CLEAR_MESSAGE,
  cacheNames,
  clearsOfflineAnswers,
  isStorableAnswer,
  OFFLINE_ANSWER_HEADER,
  SHELL_URL,
  staleCaches,
  strategyFor,
} from './rules';

declare const __SW_VERSION__: string;
declare const __SW_PRECACHE__: readonly string[];

// The site's TypeScript library is DOM, not WebWorker (the two cannot be loaded together): the few worker types
// used here, as the Service Workers specification (W3C, Service Workers, §4) defines them.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  readonly location: { readonly origin: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableEvent & { data: unknown }) => void): void;
}

const worker = self as unknown as WorkerScope;
const names = cacheNames(__SW_VERSION__);
/**
 * Counts the clears of the API cache: an answer that was on its way while the session changed (logout, another
 * login) is not stored, since it belongs to the session that just ended.
 */
let generation = 0;

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(names.shell);
      // Hashed files never change, so the copies the page just loaded are taken from the HTTP cache; the others
      // ('reload') may be an older build's there.
      const requests = __SW_PRECACHE__.map(
        (url) => new Request(url, { cache: url.startsWith('/assets/') ? 'default' : 'reload' }),
      );
      await cache.addAll(requests);
      // A new build takes over at once: the server only has the new build's files anyway.
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of staleCaches(await caches.keys(), __SW_VERSION__)) await caches.delete(name);
      // Controls the page that registered it, so its first dashboard reads are already kept.
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('message', (event) => {
  if (event.data === CLEAR_MESSAGE) event.waitUntil(clearApiAnswers());
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  switch (strategyFor(request, worker.location.origin)) {
    case 'shell':
      event.respondWith(networkOr(request, () => caches.match(SHELL_URL, { cacheName: names.shell })));
      return;
    case 'file':
      event.respondWith(networkOr(request, () => caches.match(request, { cacheName: names.shell })));
      return;
    case 'asset':
      event.respondWith(cacheFirst(request, event));
      return;
    case 'read':
      event.respondWith(read(request, event));
      return;
    case 'network':
      return;
  }
});

async function networkOr(request: Request, stored: () => Promise<Response | undefined>): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const answer = await stored();
    if (answer) return answer;
    throw error;
  }
}

async function cacheFirst(request: Request, event: ExtendableEvent): Promise<Response> {
  const stored = await caches.match(request, { cacheName: names.shell });
  if (stored) return stored;
  const answer = await fetch(request);
  if (answer.ok) {
    const copy = answer.clone();
    event.waitUntil(caches.open(names.shell).then((cache) => cache.put(request, copy)));
  }
  return answer;
}

async function read(request: Request, event: ExtendableEvent): Promise<Response> {
  const started = generation;
  let answer: Response;
  try {
    answer = await fetch(request);
  } catch (error) {
    // Keyed by URL alone: the answers differ by their query (account, time zone), never by request headers.
    const stored = await caches.match(request.url, { cacheName: names.api, ignoreVary: true });
    if (stored) return stored;
    throw error;
  }
  if (clearsOfflineAnswers(request.method, new URL(request.url).pathname, answer.status)) {
    event.waitUntil(clearApiAnswers());
  } else if (isStorableAnswer(answer.status, answer.headers.get('content-type'))) {
    event.waitUntil(store(request.url, answer.clone(), started));
  }
  return answer;
}

/** Keeps an answer with the time it came, unless the session changed while it was on its way. */
async function store(url: string, answer: Response, started: number): Promise<void> {
  const headers = new Headers(answer.headers);
  headers.set(OFFLINE_ANSWER_HEADER, new Date().toISOString());
  const stamped = new Response(await answer.blob(), { status: answer.status, statusText: answer.statusText, headers });
  const cache = await caches.open(names.api);
  if (started === generation) await cache.put(url, stamped);
}

async function clearApiAnswers(): Promise<void> {
  generation += 1;
  for (const name of apiCaches(await caches.keys())) await caches.delete(name);
}
