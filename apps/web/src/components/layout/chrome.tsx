import { createContext, type RefObject, useContext, useLayoutEffect } from 'react';

/**
 * What the current page tells the surrounding layout: whether it is the home page (banner shown,
 * algorithm selector hidden) and whether its hero is still under the nav (transparent nav).
 */
export interface Chrome {
  onHome: boolean;
  heroInView: boolean;
  setOnHome: (onHome: boolean) => void;
  setHeroInView: (inView: boolean) => void;
}

export const ChromeContext = createContext<Chrome | null>(null);

/** Height of the nav bar (Tailwind h-16); the hero slides under it. */
export const NAV_HEIGHT_PX = 64;

function useChrome(): Chrome {
  const chrome = useContext(ChromeContext);
  if (!chrome) throw new Error('useChrome must be used inside <Layout>');
  return chrome;
}

/** Called by the home page: marks it as home for as long as it is shown. */
export function useHomeChrome(): void {
  const { setOnHome } = useChrome();
  // Layout effect: the nav must not paint a frame with the algorithm selector on home.
  useLayoutEffect(() => {
    setOnHome(true);
    return () => setOnHome(false);
  }, [setOnHome]);
}

/** Watches the hero: the nav stays transparent while any of the hero is visible below it. */
export function useHeroObserver(hero: RefObject<HTMLElement | null>): void {
  const { setHeroInView } = useChrome();
  useLayoutEffect(() => {
    const element = hero.current;
    if (!element) return;
    setHeroInView(element.getBoundingClientRect().bottom > NAV_HEIGHT_PX);
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (entry) setHeroInView(entry.isIntersecting);
      },
      { rootMargin: `-${NAV_HEIGHT_PX}px 0px 0px 0px` },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      setHeroInView(false);
    };
  }, [hero, setHeroInView]);
}
