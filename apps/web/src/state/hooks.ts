import type { AlgorithmName } from '@lodestone/domain';
import { useCallback, useSyncExternalStore } from 'react';
import {
  parseIsLoggedIn,
  parseSelectedAccount,
  parseSelectedAlgorithm,
  STORAGE_KEYS,
  type StorageKey,
  serializeIsLoggedIn,
  serializeSelectedAccount,
} from './clientState';
import { readStorage, subscribeStorage, writeStorage } from './storage';

/** One persisted value as React state: parsed on read, shared by every component and tab. */
function usePersisted<T>(key: StorageKey, parse: (raw: string | null) => T): T {
  const subscribe = useCallback((onChange: () => void) => subscribeStorage(key, onChange), [key]);
  // The parsers return primitives, so equal stored texts give equal snapshots.
  // Without a browser (a screen rendered to HTML by a unit test) nothing is stored: the default.
  return useSyncExternalStore(
    subscribe,
    () => parse(readStorage(key)),
    () => parse(null),
  );
}

export function useSelectedAlgorithm(): [AlgorithmName, (name: AlgorithmName) => void] {
  return [usePersisted(STORAGE_KEYS.selectedAlgorithm, parseSelectedAlgorithm), setSelectedAlgorithm];
}

export function setSelectedAlgorithm(name: AlgorithmName): void {
  writeStorage(STORAGE_KEYS.selectedAlgorithm, name);
}

export function useSelectedAccount(): [string | null, (account: string | null) => void] {
  return [usePersisted(STORAGE_KEYS.selectedAccount, parseSelectedAccount), setSelectedAccount];
}

export function setSelectedAccount(account: string | null): void {
  writeStorage(STORAGE_KEYS.selectedAccount, serializeSelectedAccount(account));
}

export function useIsLoggedIn(): [boolean, (loggedIn: boolean) => void] {
  return [usePersisted(STORAGE_KEYS.isLoggedIn, parseIsLoggedIn), setIsLoggedIn];
}

export function setIsLoggedIn(loggedIn: boolean): void {
  writeStorage(STORAGE_KEYS.isLoggedIn, serializeIsLoggedIn(loggedIn));
}
