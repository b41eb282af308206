import { type AlgorithmName, DEFAULT_ALGORITHM, isAlgorithmName } from '@lodestone/domain';

/**
 * The shared client state kept in local storage (docs/website.md, Client state), under exactly these names so
 * that every screen — and a second tab — reads the same values. Everything here is pure: how a stored
 * text becomes a value and back. Reading and writing the storage itself lives in `storage.ts`.
 */
export const STORAGE_KEYS = {
  selectedAlgorithm: 'selectedAlgorithm',
  selectedAccount: 'selectedAccount',
  isLoggedIn: 'isLoggedIn',
  theme: 'theme',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export type Theme = 'dark' | 'light';

/** The stored algorithm name (uppercase, e.g. "SHA256"); anything else, or nothing, is SCRYPT. */
export function parseSelectedAlgorithm(raw: string | null): AlgorithmName {
  return isAlgorithmName(raw) ? raw : DEFAULT_ALGORITHM;
}

/**
 * The account the dashboard shows, or null when none was chosen. An empty text, and the texts
 * "null"/"undefined" that a plain `setItem(key, null)` leaves behind, also mean "none".
 */
export function parseSelectedAccount(raw: string | null): string | null {
  if (raw === null) return null;
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed === 'null' || trimmed === 'undefined') return null;
  return trimmed;
}

/** Logged in only when the stored text is exactly "true". */
export function parseIsLoggedIn(raw: string | null): boolean {
  return raw === 'true';
}

/** Dark only when the stored text is exactly "dark"; everything else is light. */
export function parseTheme(raw: string | null): Theme {
  return raw === 'dark' ? 'dark' : 'light';
}

/** The text to store for a value; null means "remove the key". */
export function serializeSelectedAccount(account: string | null): string | null {
  return parseSelectedAccount(account);
}

export function serializeIsLoggedIn(loggedIn: boolean): string {
  return loggedIn ? 'true' : 'false';
}
