import type { ComponentProps, ReactNode } from 'react';
import { useId } from 'react';

/** Shared form controls of the account screens, in the site's slate/amber style. */

export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500';

export const inputClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-amber-500 focus:outline-none focus:ring-2 focus:ring-amber-500/40 read-only:bg-slate-100 read-only:text-slate-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:read-only:bg-slate-700/60 dark:read-only:text-slate-300';

export const primaryButtonClass = `inline-flex items-center justify-center gap-2 rounded-lg bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-950 shadow-sm hover:bg-amber-400 disabled:cursor-not-allowed disabled:opacity-60 ${focusRing}`;

export const secondaryButtonClass = `inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800 ${focusRing}`;

export const dangerButtonClass = `inline-flex items-center justify-center gap-2 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-500 disabled:cursor-not-allowed disabled:opacity-60 ${focusRing}`;

export const linkClass = `rounded font-medium text-amber-700 underline-offset-2 hover:underline dark:text-amber-400 ${focusRing}`;

const labelClass = 'mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300';

/**
 * The site's <form>: the browser's own validation bubbles are off, because the form says what is wrong in the app's own
 * messages (FormMessage), and a submit (Enter or the submit button) never reloads the page: `onSubmit` does the form's
 * work instead. Everything else goes to the <form>.
 */
export function Form({
  onSubmit,
  ...form
}: { onSubmit: () => void } & Omit<ComponentProps<'form'>, 'onSubmit' | 'noValidate'>) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      {...form}
    />
  );
}

/** A label over the control it names: `children` gets the id the control must wear. */
export function Field({
  label,
  className,
  labelClassName = labelClass,
  children,
}: {
  label: ReactNode;
  className?: string;
  labelClassName?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/**
 * A labelled <select>: its options are `children` (a placeholder first, say), then `options`, `after` stands under it,
 * everything else goes to the <select>.
 */
export function SelectField({
  label,
  className,
  labelClassName,
  selectClassName = '',
  after,
  options = [],
  children,
  ...select
}: {
  label: string;
  labelClassName?: string;
  selectClassName?: string;
  after?: ReactNode;
  /** A list of values, each its own label (account names, units), or a record of value → label (a rule's kinds). */
  options?: readonly string[] | Readonly<Record<string, string>>;
} & ComponentProps<'select'>) {
  const labelled = isList(options) ? options.map((value) => [value, value] as const) : Object.entries(options);
  return (
    <Field label={label} className={className} labelClassName={labelClassName}>
      {(id) => (
        <>
          <select id={id} className={`${inputClass} ${selectClassName}`.trim()} {...select}>
            {children}
            {labelled.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
          {after}
        </>
      )}
    </Field>
  );
}

const isList = (options: readonly string[] | Readonly<Record<string, string>>): options is readonly string[] =>
  Array.isArray(options);

/** A labelled text input; `inputClassName` adds to its look, everything else goes to the <input>. */
export function TextField({
  label,
  hint,
  className = '',
  inputClassName = '',
  ...input
}: { label: string; hint?: ReactNode; inputClassName?: string } & ComponentProps<'input'>) {
  return (
    <Field label={label} className={className}>
      {(id) => (
        <>
          <input
            id={id}
            aria-describedby={hint ? `${id}-hint` : undefined}
            className={`${inputClass} ${inputClassName}`.trim()}
            {...input}
          />
          {hint && (
            <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {hint}
            </p>
          )}
        </>
      )}
    </Field>
  );
}

/** The one message under a form: an error (red, announced at once) or a success (green). */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error) {
    return (
      <p
        role="alert"
        data-testid="form-error"
        className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-900 dark:bg-red-950/50 dark:text-red-300"
      >
        {error}
      </p>
    );
  }
  if (success) {
    return (
      <p
        role="status"
        data-testid="form-success"
        className="rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-700 dark:border-green-900 dark:bg-green-950/50 dark:text-green-300"
      >
        {success}
      </p>
    );
  }
  return null;
}

/** An on/off switch with its label and an optional description. */
export function Toggle({
  label,
  description,
  checked,
  onChange,
  testId,
}: {
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {label}
        </label>
        {description && <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        data-testid={testId}
        onClick={() => onChange(!checked)}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors ${focusRing} ${
          checked ? 'bg-amber-500' : 'bg-slate-300 dark:bg-slate-600'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
            checked ? 'translate-x-5' : 'translate-x-0.5'
          }`}
        />
      </button>
    </div>
  );
}

/** A button that is off and says `pendingLabel` while its action runs; primary unless `className` says otherwise. */
export function PendingButton({
  pending,
  label,
  pendingLabel,
  className = primaryButtonClass,
  type = 'button',
  ...button
}: { pending: boolean; label: string; pendingLabel: string } & Omit<ComponentProps<'button'>, 'children'>) {
  return (
    <button type={type} className={className} disabled={pending} {...button}>
      {pending ? pendingLabel : label}
    </button>
  );
}

/** The row at the foot of a dialog: the close button (Cancel unless `closeLabel` says otherwise), then its action. */
export function DialogButtons({
  onClose,
  closeLabel = 'Cancel',
  children,
}: {
  onClose: () => void;
  closeLabel?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex justify-end gap-2">
      <button type="button" className={secondaryButtonClass} onClick={onClose}>
        {closeLabel}
      </button>
      {children}
    </div>
  );
}
