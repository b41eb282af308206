import type { AlgorithmName } from '@lodestone/domain';
import type { ReactNode } from 'react';
import { AlgorithmLogo } from './AlgorithmLogo';
import { PageHeader } from './publicPage';

/**
 * The header of a public page about the algorithm chosen in the nav (stats, blocks, profitability): the title, then a line
 * with the algorithm's logo and name (`testId`) followed by `children`, the page's own words.
 */
export function AlgorithmPageHeader({
  title,
  algorithm,
  testId,
  children,
}: {
  title: string;
  algorithm: AlgorithmName;
  testId: string;
  children: ReactNode;
}) {
  return (
    <PageHeader title={title}>
      <p className="flex items-center gap-2">
        <AlgorithmLogo algorithm={algorithm} className="size-5" />
        <span>
          <span data-testid={testId} className="font-semibold text-slate-800 dark:text-slate-200">
            {algorithm}
          </span>
          {children}
        </span>
      </p>
    </PageHeader>
  );
}
