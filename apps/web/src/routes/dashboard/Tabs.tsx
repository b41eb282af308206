import { type KeyboardEvent, useId, useRef } from 'react';

/** The dashboard's two tabs (docs/dashboard.md, The screens). */
export const TABS = [
  { id: 'mining', label: 'Mining' },
  { id: 'revenue', label: 'Revenue' },
] as const;
export type TabId = (typeof TABS)[number]['id'];

/**
 * A WAI-ARIA tab list: ←/→ (and Home/End) move between tabs and select them, Tab leaves the list
 * for the panel. Returns the ids the panel needs for aria-labelledby.
 */
export function useTabIds() {
  const base = useId();
  return { tab: (id: TabId) => `${base}-tab-${id}`, panel: (id: TabId) => `${base}-panel-${id}` };
}

export function TabList({
  selected,
  onSelect,
  ids,
}: {
  selected: TabId;
  onSelect: (tab: TabId) => void;
  ids: ReturnType<typeof useTabIds>;
}) {
  const buttons = useRef<Partial<Record<TabId, HTMLButtonElement | null>>>({});

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.id === selected);
    const last = TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (index + last) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const tab = next === null ? undefined : TABS[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    buttons.current[tab.id]?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label="Dashboard"
      onKeyDown={onKeyDown}
      className="inline-flex rounded-xl border border-slate-200 bg-slate-100 p-1 dark:border-slate-800 dark:bg-slate-900"
    >
      {TABS.map((tab) => {
        const active = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[tab.id] = element;
            }}
            id={ids.tab(tab.id)}
            type="button"
            role="tab"
            aria-selected={active}
            aria-controls={active ? ids.panel(tab.id) : undefined}
            tabIndex={active ? 0 : -1}
            data-testid={`tab-${tab.id}`}
            onClick={() => onSelect(tab.id)}
            className={`rounded-lg px-5 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 ${
              active
                ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white'
                : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
