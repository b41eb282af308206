import { ALGORITHMS } from '@lodestone/domain';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { getMiningSummary } from '../../../api/dashboard';
import { queryKeys } from '../../../api/queryKeys';
import { parseWizardDone, shouldOpenWizard, WIZARD_STORAGE_KEY, withWizardDone } from './wizard';

function readDone(): string[] {
  try {
    return parseWizardDone(window.localStorage.getItem(WIZARD_STORAGE_KEY));
  } catch {
    // Storage blocked: the wizard may show again next visit, which is harmless.
    return [];
  }
}

function writeDone(done: readonly string[]): void {
  try {
    window.localStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify(done));
  } catch (error) {
    console.warn(`Could not save "${WIZARD_STORAGE_KEY}" in local storage`, error);
  }
}

/**
 * Whether the first-time wizard opens by itself for `account` (wizard.ts `shouldOpenWizard`): it
 * asks for the account's mining summary on every algorithm once — only while the wizard was never
 * finished or closed for this account in this browser, so a returning miner costs no extra calls.
 */
export function useWizardAutoOpen(account: string): { shouldOpen: boolean; markDone: () => void } {
  const [done, setDone] = useState(readDone);
  const pending = !done.includes(account);
  const summaries = useQueries({
    queries: ALGORITHMS.map(({ key }) => ({
      queryKey: queryKeys.mining({ kind: 'user', account }, key),
      queryFn: ({ signal }: { signal: AbortSignal }) => getMiningSummary({ kind: 'user', account }, key, signal),
      enabled: pending,
      staleTime: 30_000,
    })),
  });
  const totals = summaries.map((q) => q.data?.total_workers);
  return {
    shouldOpen: pending && shouldOpenWizard(done, account, totals),
    markDone: () => {
      const next = withWizardDone(readDone(), account);
      writeDone(next);
      setDone(next);
    },
  };
}
