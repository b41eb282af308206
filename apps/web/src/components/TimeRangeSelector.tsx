import type { ChartPeriod } from '@lodestone/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { focusRing } from './form';
import { CheckIcon, ChevronDownIcon } from './icons';

/**
 * The periods every time chart offers (24h, 7 days, 30 days; docs/dashboard.md, Chart ranges), as its time-range
 * selector names them.
 */
const PERIOD_OPTIONS: readonly { period: ChartPeriod; label: string }[] = [
  { period: '24h', label: '24h' },
  { period: '7d', label: '7 days' },
  { period: '30d', label: '30 days' },
];

export function periodLabel(period: ChartPeriod): string {
  return PERIOD_OPTIONS.find((o) => o.period === period)?.label ?? period;
}

/**
 * The time-range dropdown of the site's time charts (Profitability, the stats page's pool hashrate, the dashboards'
 * hashrate and revenue): the button toggles the list; picking a range closes it and reports the choice. A disclosure
 * with plain buttons: Tab and Enter work without extra keys, and Escape or a press outside closes it.
 */
export function TimeRangeSelector({
  value,
  onSelect,
  periods,
}: {
  value: ChartPeriod;
  onSelect: (period: ChartPeriod) => void;
  /** The periods offered when a chart has fewer (one worker's: 24h and 7 days); all three by default. */
  periods?: readonly ChartPeriod[];
}) {
  const options = periods ? PERIOD_OPTIONS.filter((o) => periods.includes(o.period)) : PERIOD_OPTIONS;
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        data-testid="time-range"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => setOpen((o) => !o)}
        className={`inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700 ${focusRing}`}
      >
        <span className="sr-only">Time range: </span>
        {periodLabel(value)}
        <ChevronDownIcon className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <ul
          id={listId}
          aria-label="Time range"
          className="absolute right-0 z-40 mt-2 w-36 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-800"
        >
          {options.map((option) => (
            <li key={option.period}>
              <button
                type="button"
                data-testid={`time-range-${option.period}`}
                aria-pressed={option.period === value}
                onClick={() => {
                  setOpen(false);
                  button.current?.focus();
                  onSelect(option.period);
                }}
                className={`flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-700 ${focusRing} ${
                  option.period === value ? 'font-semibold' : ''
                }`}
              >
                {option.label}
                {option.period === value && <CheckIcon className="size-4 text-amber-600 dark:text-amber-400" />}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
