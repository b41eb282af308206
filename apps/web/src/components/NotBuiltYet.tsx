import { Link } from 'react-router';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** What every route shows until its screen is built: its title and a plain statement, no sample data. */
export default function NotBuiltYet({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <section data-testid="not-built" className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-400">
        This page is not available yet in this version of Lodestone.
      </p>
      <Link
        to="/"
        className="mt-8 inline-flex rounded-lg bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-amber-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500"
      >
        Back to the home page
      </Link>
    </section>
  );
}
