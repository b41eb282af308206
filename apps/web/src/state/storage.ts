import type { StorageKey } from './clientState';

/**
 * Local storage with two additions: access never throws (storage can be disabled, full, or blocked in
 * a private window — then the site runs on defaults for this visit), and a change made in this tab or
 * in another one reaches every subscriber of that key.
 */
type Listener = () => void;

const listeners = new Map<StorageKey, Set<Listener>>();

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Accessing localStorage throws a SecurityError when the browser blocks site data.
    return null;
  }
}

export function readStorage(key: StorageKey): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Stores `value` under `key`, or removes the key when `value` is null, then tells this tab's subscribers. */
export function writeStorage(key: StorageKey, value: string | null): void {
  const store = storage();
  try {
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch (error) {
    // Quota exceeded or storage blocked: the value lives only until the page is closed.
    console.warn(`Could not save "${key}" in local storage`, error);
  }
  notify(key);
}

function notify(key: StorageKey): void {
  for (const listener of listeners.get(key) ?? []) listener();
}

let crossTabListening = false;

function listenAcrossTabs(): void {
  if (crossTabListening) return;
  crossTabListening = true;
  // The `storage` event fires in every other tab of this origin; key null means the storage was cleared.
  window.addEventListener('storage', (event) => {
    if (event.storageArea !== null && event.storageArea !== storage()) return;
    for (const key of listeners.keys()) if (event.key === null || event.key === key) notify(key);
  });
}

/** Calls `listener` whenever `key` changes in this tab or another; returns the unsubscribe function. */
export function subscribeStorage(key: StorageKey, listener: Listener): () => void {
  listenAcrossTabs();
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}
