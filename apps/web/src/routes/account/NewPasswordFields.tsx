import type { ComponentProps } from 'react';
import { TextField } from '../../components/form';

type Field = Pick<ComponentProps<'input'>, 'name' | 'value' | 'onChange'>;

/** A new password and its confirmation, as registering and password recovery ask for them. */
export function NewPasswordFields({
  labels,
  password,
  confirm,
}: {
  labels: readonly [password: string, confirm: string];
  password: Field;
  confirm: Field;
}) {
  return (
    <>
      <TextField
        label={labels[0]}
        type="password"
        autoComplete="new-password"
        required
        hint="At least 10 characters."
        {...password}
      />
      <TextField label={labels[1]} type="password" autoComplete="new-password" required {...confirm} />
    </>
  );
}
