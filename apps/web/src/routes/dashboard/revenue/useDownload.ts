import { useState } from 'react';
import { serverErrorText } from '../../../api/errors';
import { MESSAGES } from '../messages';
import { saveFile } from './saveFile';

type DownloadState = { pending: boolean; error: string | null };

/** Runs one download and keeps its state; the file is saved under `fileName`. */
export function useDownload(): [
  DownloadState,
  (fetchFile: () => Promise<Blob | null>, fileName: string) => Promise<void>,
] {
  const [state, setState] = useState<DownloadState>({ pending: false, error: null });
  const run = async (fetchFile: () => Promise<Blob | null>, fileName: string) => {
    setState({ pending: true, error: null });
    try {
      const blob = await fetchFile();
      if (blob === null) {
        setState({ pending: false, error: MESSAGES.noPdfData });
        return;
      }
      saveFile(blob, fileName);
      setState({ pending: false, error: null });
    } catch (error) {
      console.error(`Download of ${fileName} failed:`, error);
      setState({ pending: false, error: serverErrorText(error, MESSAGES.downloadFailed) });
    }
  };
  return [state, run];
}
