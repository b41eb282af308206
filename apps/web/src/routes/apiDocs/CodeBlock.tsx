import { CopyButton } from '../../components/CopyButton';
import { codeSpans } from './openapi';

/** A labelled block of code with a copy button. */
export function CodeBlock({ label, code, testId }: { label: string; code: string; testId?: string }) {
  return (
    <figure className="mt-4 overflow-hidden rounded-xl border border-slate-200 dark:border-slate-800">
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-3 py-1.5 text-xs font-semibold text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300">
        {label}
        <CopyButton text={code} label={`Copy ${label}`} />
      </figcaption>
      <pre
        data-testid={testId}
        className="max-h-[28rem] overflow-auto bg-slate-950 p-4 text-xs leading-relaxed text-slate-100"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** A description from the document, its `code` spans set as code. */
export function Description({ text }: { text: string }) {
  return (
    <>
      {codeSpans(text).map((part, i) =>
        part.code ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered.
          <code key={i} className="rounded bg-slate-100 px-1 font-mono dark:bg-slate-800">
            {part.text}
          </code>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
