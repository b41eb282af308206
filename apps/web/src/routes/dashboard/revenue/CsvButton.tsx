import { FormMessage, secondaryButtonClass } from '../../../components/form';

import { useDownload } from './useDownload';

/** A CSV download button with its pending state and error. */
export function CsvButton({
  label,
  fileName,
  fetchFile,
  testId,
}: {
  label: string;
  fileName: string;
  fetchFile: () => Promise<Blob | null>;
  testId: string;
}) {
  const [download, run] = useDownload();
  return (
    <div className="flex flex-col items-end gap-2">
      <button
        type="button"
        className={secondaryButtonClass}
        data-testid={testId}
        disabled={download.pending}
        onClick={() => void run(fetchFile, fileName)}
      >
        {download.pending ? 'Downloading…' : label}
      </button>
      {download.error && <FormMessage error={download.error} />}
    </div>
  );
}
