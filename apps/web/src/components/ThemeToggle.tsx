import { useTheme } from '../state/theme';
import { MoonIcon, SunIcon } from './icons';

/** Switches between the light and dark theme; pressed while dark. */
export function ThemeToggle({ className = '' }: { className?: string }) {
  const [theme, setTheme] = useTheme();
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      data-testid="theme-toggle"
      aria-pressed={dark}
      aria-label="Dark mode"
      title={dark ? 'Switch to the light theme' : 'Switch to the dark theme'}
      onClick={() => setTheme(dark ? 'light' : 'dark')}
      className={`inline-flex size-9 items-center justify-center rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 ${className}`}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
