import { useEffect, useRef, useState } from 'react';
import { animatedValue } from './animation';

/**
 * A figure that counts from its old value to its new one over 800 ms (docs/dashboard.md, The screens) when a refresh
 * changes it. While moving it shows `format(n)` of the in-between number; at rest it shows `text`, the exact figure
 * (balances are exact decimals, the animation only approximates the path between two of them). Visitors who asked their
 * system for reduced motion see the new figure at once.
 */
export function AnimatedNumber({
  value,
  text,
  format,
  testId,
}: {
  value: number;
  text: string;
  format: (n: number) => string;
  testId?: string;
}) {
  const [shown, setShown] = useState<number | null>(null);
  const previous = useRef(value);
  const formatRef = useRef(format);
  formatRef.current = format;

  useEffect(() => {
    const from = previous.current;
    previous.current = value;
    if (from === value || window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
      setShown(null);
      return;
    }
    const start = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const between = animatedValue(from, value, now - start);
      setShown(between);
      if (between === null) return;
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [value]);

  return (
    <span data-testid={testId} data-animating={shown !== null || undefined}>
      {shown === null ? text : formatRef.current(shown)}
    </span>
  );
}
