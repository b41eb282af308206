import { useSite, useUserInfo } from '../../api/queries';
import { useHomeChrome } from '../../components/layout/chrome';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Features } from './Features';
import { Hero } from './Hero';
import { PoolTable } from './PoolTable';

/** Home (docs/website.md, Home): hero, pool table, about-us features. Also rendered for "/{source}". */
export function HomePage() {
  useHomeChrome();
  useDocumentTitle('Pay-per-share mining pool');
  // Home checks the session (docs/website.md, Session), which sets or clears the logged-in flag.
  useUserInfo();
  const site = useSite();
  return (
    <>
      <Hero site={site.data} />
      <PoolTable />
      <Features feePercent={site.data?.fee_percent} />
    </>
  );
}
