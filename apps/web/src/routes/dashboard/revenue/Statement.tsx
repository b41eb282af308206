import { useState } from 'react';
import { downloadStatement } from '../../../api/dashboard';
import { FormMessage, PendingButton, TextField } from '../../../components/form';
import { clampMonth, previousMonth, statementFileName } from './months';

import { useDownload } from './useDownload';

/** The monthly PDF statement: month picker (max and default: the previous month) and Download. */
export function Statement({ account, timezone }: { account: string; timezone: string }) {
  const [max] = useState(() => previousMonth(new Date()));
  const [month, setMonth] = useState(max);
  const [download, run] = useDownload();
  return (
    <div data-testid="statement">
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">Monthly statement</h3>
      <div className="mt-2 flex flex-wrap items-end gap-3">
        <TextField
          label="Month"
          type="month"
          max={max}
          value={month}
          data-testid="statement-month"
          inputClassName="w-44"
          onChange={(event) => setMonth(clampMonth(event.target.value, max))}
        />
        <PendingButton
          data-testid="statement-download"
          onClick={() => void run(() => downloadStatement(account, month, timezone), statementFileName(month))}
          pending={download.pending}
          label="Download (PDF)"
          pendingLabel="Downloading…"
        />
      </div>
      {download.error && (
        <div className="mt-3">
          <FormMessage error={download.error} />
        </div>
      )}
    </div>
  );
}
