import type { ChangeEvent } from 'react';

/** The keys of a draft whose value is text: the ones an input or a select edits. */
type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/**
 * Per text key of a form's draft, the `value`/`onChange` pair of the input or select that edits it. Every edit goes
 * through the form's `change`, which keeps its own side effects (clearing the form's message).
 */
export function draftFields<T>(draft: T, change: (fields: Partial<T>) => void) {
  return (key: TextKey<T>) => ({
    value: draft[key] as string,
    // A select offers only the key's values, so its text is one of them (likewise a free-text key takes any text).
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      change({ [key]: event.target.value } as Partial<T>),
  });
}
