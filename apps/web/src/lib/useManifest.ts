import { useEffect } from 'react';

/**
 * Points the page's <link rel="manifest"> at `href` while the calling screen is shown, and back at the site's own
 * manifest after: what a phone installs from this screen (docs/dashboard.md, Installing the dashboard).
 */
export function useManifest(href: string): void {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    const site = link?.getAttribute('href');
    if (!link || !site) return;
    link.setAttribute('href', href);
    return () => link.setAttribute('href', site);
  }, [href]);
}
