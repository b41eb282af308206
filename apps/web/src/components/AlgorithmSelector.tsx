import { ALGORITHMS, type AlgorithmName } from '@lodestone/domain';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useSelectedAlgorithm } from '../state/hooks';
import { AlgorithmLogo } from './AlgorithmLogo';
import { CheckIcon, ChevronDownIcon } from './icons';

/**
 * Dropdown of the six algorithms (docs/website.md, Layout and navigation).
 * - Without props it shows and changes the site-wide `selectedAlgorithm`.
 * - With `value` and `onSelect` (the conversion modal's mode) the choice goes only to the caller and
 *   the site-wide selection is left as it is.
 * Keyboard: Enter/Space/↓/↑ open; ↑/↓/Home/End move; Enter/Space choose; Escape closes; Tab leaves.
 */
type Props = {
  /** data-testid of the button; options are always `algorithm-option-{NAME}`. */
  testId?: string;
  className?: string;
} & ({ value?: undefined; onSelect?: undefined } | { value: AlgorithmName; onSelect: (name: AlgorithmName) => void });

const NAMES: readonly AlgorithmName[] = ALGORITHMS.map((a) => a.name);

export function AlgorithmSelector({ testId = 'algorithm-selector', className = '', ...mode }: Props) {
  const [globalValue, setGlobalValue] = useSelectedAlgorithm();
  const value = mode.onSelect ? mode.value : globalValue;

  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(() => NAMES.indexOf(value));
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;

  const openList = (index = NAMES.indexOf(value)) => {
    setActive(Math.max(0, index));
    setOpen(true);
  };

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const choose = (name: AlgorithmName) => {
    if (mode.onSelect) mode.onSelect(name);
    else setGlobalValue(name);
    close(true);
  };

  // Focus the list when it opens so the arrow keys work at once.
  useEffect(() => {
    if (open) listRef.current?.focus();
  }, [open]);

  // A press anywhere outside closes the list.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openList();
    }
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = nextActive(event.key, active, NAMES.length - 1);
    if (next !== null) {
      event.preventDefault();
      setActive(next);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const name = NAMES[active];
      if (name) choose(name);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div ref={containerRef} className={`relative ${className}`}>
      <button
        ref={buttonRef}
        type="button"
        data-testid={testId}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => (open ? close(false) : openList())}
        onKeyDown={onButtonKeyDown}
        className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
      >
        <AlgorithmLogo algorithm={value} className="size-5" />
        <span className="sr-only">Algorithm: </span>
        <span>{value}</span>
        <ChevronDownIcon className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          tabIndex={-1}
          aria-label="Algorithm"
          aria-activedescendant={optionId(active)}
          onKeyDown={onListKeyDown}
          onBlur={(event) => {
            if (!containerRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
          }}
          className="absolute right-0 z-50 mt-2 w-52 rounded-lg border border-slate-200 bg-white p-1 shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-800"
        >
          {NAMES.map((name, index) => {
            const selected = name === value;
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keyboard (aria-activedescendant).
              <div
                key={name}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={selected}
                data-testid={`algorithm-option-${name}`}
                onClick={() => choose(name)}
                onPointerMove={() => setActive(index)}
                className={`flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 outline-none text-sm text-slate-800 dark:text-slate-100 ${
                  index === active ? 'bg-slate-100 dark:bg-slate-700' : ''
                } ${selected ? 'font-semibold' : ''}`}
              >
                <AlgorithmLogo algorithm={name} className="size-5" />
                <span className="flex-1">{name}</span>
                {selected && <CheckIcon className="size-4 text-amber-600 dark:text-amber-400" />}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** Where ↑, ↓, Home and End move the highlighted option; null for any other key. */
function nextActive(key: string, active: number, last: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, active + 1);
    case 'ArrowUp':
      return Math.max(0, active - 1);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}
