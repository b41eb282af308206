import { Link } from 'react-router';
import { useSite } from '../../api/queries';
import { BrandMark } from '../../components/BrandMark';
import { secondaryButtonClass } from '../../components/form';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/**
 * /logo (shown without nav and footer): the pool's mark on a light and a dark ground, large enough
 * to screenshot, with the SVG file for press and partners. The file is the site's own favicon, the
 * same drawing as BrandMark.
 */
export default function LogoPage() {
  useDocumentTitle('Logo');
  const poolName = useSite().data?.pool_name;
  return (
    <div className="min-h-dvh bg-slate-100 px-4 py-12 dark:bg-slate-950" data-testid="logo-page">
      <div className="mx-auto max-w-4xl">
        <h1 className="text-center text-2xl font-bold text-slate-900 dark:text-white">
          {poolName ? `${poolName} logo` : 'Logo'}
        </h1>
        <div className="mt-10 grid gap-6 sm:grid-cols-2">
          <figure className="flex flex-col items-center gap-4 rounded-2xl bg-white p-10 shadow-sm">
            <BrandMark className="size-40" title={poolName ?? 'Logo'} />
            <figcaption className="text-2xl font-bold text-slate-900">{poolName}</figcaption>
          </figure>
          <figure className="flex flex-col items-center gap-4 rounded-2xl bg-slate-900 p-10 shadow-sm">
            <BrandMark className="size-40" title={poolName ? `${poolName} (dark)` : 'Logo (dark)'} />
            <figcaption className="text-2xl font-bold text-white">{poolName}</figcaption>
          </figure>
        </div>
        <div className="mt-10 flex flex-wrap justify-center gap-4">
          <a href="/favicon.svg" download="logo.svg" className={secondaryButtonClass} data-testid="logo-download">
            Download SVG
          </a>
          <Link to="/" className={secondaryButtonClass}>
            Back to the home page
          </Link>
        </div>
      </div>
    </div>
  );
}
