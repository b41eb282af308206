import { type ChangeEvent, useState } from 'react';

/** The typed values of a form and, per field, the `value`/`onChange` pair of its input. */
export function useFormFields<T extends { [K in keyof T]: string | boolean }>(initial: T) {
  const [values, setValues] = useState(initial);
  const text = (name: { [K in keyof T]: T[K] extends string ? K : never }[keyof T]) => ({
    name: String(name),
    value: values[name] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: event.target.value })),
  });
  const checkbox = (name: { [K in keyof T]: T[K] extends boolean ? K : never }[keyof T]) => ({
    name: String(name),
    checked: values[name] as boolean,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: event.target.checked })),
  });
  return { values, setValues, text, checkbox };
}
