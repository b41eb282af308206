/**
 * Smooth scrolling to a section of the page, stopping `offset` pixels above it so the sticky nav
 * does not cover its heading (50 px on the power bridge page, 70 px on Sats4Soup: docs/website.md, Power bridge).
 */
export function scrollTarget(elementTop: number, scrollY: number, offset: number): number {
  return Math.max(0, Math.round(elementTop + scrollY - offset));
}

export function scrollToSection(id: string, offset: number): void {
  const element = document.getElementById(id);
  if (!element) return;
  const top = scrollTarget(element.getBoundingClientRect().top, window.scrollY, offset);
  // People who asked their system for less motion get the jump without the animation.
  const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top, behavior: smooth ? 'smooth' : 'auto' });
  // Move focus there too, so keyboard and screen reader users land where the page scrolled.
  element.focus({ preventScroll: true });
}
