import { useSyncExternalStore } from 'react';
import { parseTheme, STORAGE_KEYS, type Theme } from './clientState';
import { readStorage, subscribeStorage, writeStorage } from './storage';

/**
 * Dark mode is the class `dark` on <html> (Tailwind's class-based dark variant). The class is the
 * truth the page shows; local storage (`theme`) remembers it across visits and tabs.
 */
const root = (): HTMLElement => document.documentElement;

export function applyTheme(theme: Theme): void {
  root().classList.toggle('dark', theme === 'dark');
}

export function storedTheme(): Theme {
  return parseTheme(readStorage(STORAGE_KEYS.theme));
}

/** Applies the stored theme now and again whenever another tab stores a different one. */
export function startThemeSync(): void {
  applyTheme(storedTheme());
  subscribeStorage(STORAGE_KEYS.theme, () => applyTheme(storedTheme()));
}

export function setTheme(theme: Theme): void {
  writeStorage(STORAGE_KEYS.theme, theme);
  applyTheme(theme);
}

function currentTheme(): Theme {
  return root().classList.contains('dark') ? 'dark' : 'light';
}

function subscribeToRootClass(onChange: () => void): () => void {
  // Follows the class itself, so the toggle stays right whoever changes it (another tab, a script).
  const observer = new MutationObserver(onChange);
  observer.observe(root(), { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  // Without a document (a screen rendered to HTML by a unit test) the page is light.
  return [useSyncExternalStore(subscribeToRootClass, currentTheme, () => 'light'), setTheme];
}
