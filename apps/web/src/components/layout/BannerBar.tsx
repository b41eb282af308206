import { lazy, Suspense } from 'react';
import { useBanner } from '../../api/queries';

const SanitizedMarkup = lazy(() => import('./SanitizedMarkup'));

/** The bar at the top of the home page, shown only while GET /v1/banner says it is visible. */
export function BannerBar() {
  const { data } = useBanner();
  // A failed banner call is logged by the query client and shows nothing (docs/website.md, Forms and messages).
  if (!data?.visible || data.text.trim() === '') return null;
  return (
    <aside
      data-testid="banner"
      aria-label="Announcement"
      className="bg-amber-400 px-4 py-2 text-center text-sm font-medium text-slate-950 [&_a]:font-semibold [&_a]:underline"
    >
      <Suspense fallback={null}>
        <SanitizedMarkup html={data.text} inline />
      </Suspense>
    </aside>
  );
}
