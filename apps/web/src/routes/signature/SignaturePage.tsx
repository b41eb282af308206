import type { SignatureResponse } from '@lodestone/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { getSignature, useSignature } from '../../api/public';
import { useSite } from '../../api/queries';
import { queryKeys } from '../../api/queryKeys';
import { BrandMark } from '../../components/BrandMark';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../components/form';
import { formatDateTime } from '../../lib/dates';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import {
  compareHashes,
  hashPastedText,
  isSignatureFormat,
  kindText,
  SIGNATURE_MESSAGES,
  sha256Hex,
  type VerifyState,
} from './verify';

/**
 * Signature verification (/signature/{signature}, shown without nav and footer). A document the pool
 * hands out (a monthly statement, a payout receipt) prints its signature and this page's link. The
 * visitor gives the page their copy, as a file or as pasted text; the page hashes it in the browser,
 * asks the pool for the hash it signed (GET /v1/signatures/{signature}) and compares:
 * idle → verifying → valid | mismatch | error. The document is never uploaded.
 */
export default function SignaturePage() {
  useDocumentTitle('Signature Verification');
  const { signature = '' } = useParams();
  const site = useSite().data;
  const lookup = useSignature(signature);
  const queryClient = useQueryClient();
  const [state, setState] = useState<VerifyState>('idle');
  const [detail, setDetail] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [dragging, setDragging] = useState(false);
  const run = useRef(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const textId = useId();

  const verify = async (hashes: () => Promise<string[]>) => {
    // A newer verification (another file) wins over one still running.
    const current = ++run.current;
    setState('verifying');
    setDetail(null);
    try {
      const [expected, actual] = await Promise.all([
        queryClient.fetchQuery({
          queryKey: queryKeys.signature(signature),
          queryFn: ({ signal }) => getSignature(signature, signal),
          staleTime: Number.POSITIVE_INFINITY,
        }),
        hashes(),
      ]);
      if (current !== run.current) return;
      setState(compareHashes(expected.result, actual));
    } catch (error) {
      if (current !== run.current) return;
      console.error('Signature verification failed:', error);
      setState('error');
      setDetail(errorDetail(error, site?.pool_name));
    }
  };

  const verifyFile = (file: File | undefined) => {
    if (!file) return;
    setFileName(file.name);
    void verify(async () => [await sha256Hex(await file.arrayBuffer())]);
  };

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    verifyFile(event.dataTransfer.files[0]);
  };

  const reset = () => {
    run.current += 1;
    setState('idle');
    setDetail(null);
    setFileName(null);
    setText('');
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <div className="min-h-dvh bg-slate-50 px-4 py-10 sm:py-16 dark:bg-slate-950" data-testid="signature-page">
      <div className="mx-auto max-w-2xl">
        <Link
          to="/"
          className="inline-flex items-center gap-2 rounded-lg text-lg font-bold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 dark:text-white"
        >
          <BrandMark className="size-8" />
          {site?.pool_name}
        </Link>
        <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">Signature Verification</h1>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Check that a document you received from the pool is exactly the one it signed. Your document stays on your
            computer: only its fingerprint (SHA-256) is compared.
          </p>

          <p className="mt-5 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
            Signature
          </p>
          <p
            data-testid="signature-value"
            className="mt-1 font-mono text-sm break-all text-slate-900 dark:text-slate-100"
          >
            {signature}
          </p>
          <SignatureInfo lookup={lookup} signature={signature} />

          <div className="mt-6 space-y-5">
            <label
              htmlFor={fileId}
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed px-4 py-8 text-center text-sm ${
                dragging
                  ? 'border-amber-500 bg-amber-50 dark:bg-amber-950/30'
                  : 'border-slate-300 hover:border-amber-400 dark:border-slate-700'
              }`}
            >
              <span className="font-semibold text-slate-800 dark:text-slate-100">Choose the document file</span>
              <span className="text-slate-500 dark:text-slate-400">
                {fileName ? `Selected: ${fileName}` : 'or drop it here (the PDF or text file as you received it)'}
              </span>
              <input
                ref={fileInput}
                id={fileId}
                type="file"
                data-testid="signature-file"
                className="sr-only"
                onChange={(event) => verifyFile(event.target.files?.[0])}
              />
            </label>

            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (text.trim() === '') return;
                setFileName(null);
                void verify(() => hashPastedText(text));
              }}
            >
              <label htmlFor={textId} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">
                Or paste the text of a receipt
              </label>
              <textarea
                id={textId}
                rows={6}
                value={text}
                onChange={(event) => setText(event.target.value)}
                data-testid="signature-text"
                className={`${inputClass} font-mono`}
              />
              <div className="mt-3 flex flex-wrap gap-3">
                <button
                  type="submit"
                  className={primaryButtonClass}
                  disabled={text.trim() === '' || state === 'verifying'}
                  data-testid="signature-verify"
                >
                  Verify
                </button>
                <button type="button" className={secondaryButtonClass} onClick={reset} disabled={state === 'idle'}>
                  Start over
                </button>
              </div>
            </form>
          </div>

          <Result state={state} detail={detail} />
        </div>
      </div>
    </div>
  );
}

function SignatureInfo({ lookup, signature }: { lookup: ReturnType<typeof useSignature>; signature: string }) {
  if (lookup.isPending) {
    return <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">Looking up the signature…</p>;
  }
  if (lookup.data) return <Issued data={lookup.data} />;
  const unknown = !isSignatureFormat(signature) || (lookup.error instanceof ApiError && lookup.error.status === 404);
  return (
    <p data-testid="signature-unknown" className="mt-2 text-sm text-red-700 dark:text-red-400">
      {unknown
        ? 'The pool has no record of this signature: check that the link was copied completely.'
        : `The signature could not be looked up: ${lookup.error?.message.replace(/\.$/, '') ?? 'unknown error'}.`}
    </p>
  );
}

function Issued({ data }: { data: SignatureResponse }) {
  const when = formatDateTime(data.issued_at);
  return (
    <p data-testid="signature-issued" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
      Issued by the pool for {kindText(data.kind)} on {when}.
    </p>
  );
}

const RESULT_STYLES: Record<Exclude<VerifyState, 'idle'>, string> = {
  verifying: 'border-slate-200 bg-slate-50 text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200',
  valid: 'border-green-200 bg-green-50 text-green-800 dark:border-green-900 dark:bg-green-950/50 dark:text-green-300',
  mismatch: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-300',
  error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-300',
};

function Result({ state, detail }: { state: VerifyState; detail: string | null }) {
  if (state === 'idle') {
    return (
      <p data-testid="signature-state" data-state="idle" className="mt-6 text-sm text-slate-500 dark:text-slate-400">
        Choose or paste the document to verify it.
      </p>
    );
  }
  const message =
    state === 'verifying'
      ? 'Verifying…'
      : state === 'valid'
        ? SIGNATURE_MESSAGES.valid
        : state === 'mismatch'
          ? SIGNATURE_MESSAGES.mismatch
          : SIGNATURE_MESSAGES.error;
  const explanation =
    state === 'valid'
      ? 'This document is exactly the one the pool signed.'
      : state === 'mismatch'
        ? 'This document differs from the one the pool signed: it was changed, or it is another document.'
        : detail;
  return (
    <div
      role={state === 'verifying' ? 'status' : 'alert'}
      data-testid="signature-state"
      data-state={state}
      className={`mt-6 rounded-xl border px-4 py-3 ${RESULT_STYLES[state]}`}
    >
      <p data-testid="signature-message" className="font-semibold">
        {message}
      </p>
      {explanation && <p className="mt-1 text-sm">{explanation}</p>}
    </div>
  );
}

function errorDetail(error: unknown, poolName: string | undefined): string {
  if (error instanceof ApiError && error.status === 404) {
    return `${poolName ?? 'The pool'} has no record of this signature.`;
  }
  if (error instanceof ApiError) return error.message;
  return 'The document could not be read. Please try again.';
}
