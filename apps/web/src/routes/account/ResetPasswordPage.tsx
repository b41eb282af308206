import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { resetPassword } from '../../api/account';
import { serverErrorText } from '../../api/errors';
import { Form, primaryButtonClass, TextField } from '../../components/form';
import { AuthShell, FooterLink, SubmitRow } from './AuthShell';
import { type ResetValues, resetForm, resetLinkFromQuery, validateReset } from './forms';
import { MESSAGES } from './messages';
import { NewPasswordFields } from './NewPasswordFields';
import { useFormFields } from './useFormFields';

/**
 * Reset password (/newPassword?k=…&email=…, the link of the recovery e-mail): the recovery key shown
 * read-only, the address, and the new password twice.
 */
export default function ResetPasswordPage() {
  const [search] = useSearchParams();
  const link = resetLinkFromQuery(search);
  const { values, text } = useFormFields<ResetValues>({ password: '', confirmPassword: '' });
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});

  const mutation = useMutation({
    mutationFn: ({ email, form }: { email: string; form: FormData }) => resetPassword(email, form),
    onSuccess: () => setMessage({ success: MESSAGES.passwordChanged }),
    onError: (failure) => setMessage({ error: serverErrorText(failure, MESSAGES.unexpected) }),
  });

  const submit = () => {
    if (mutation.isPending || mutation.isSuccess) return;
    const problem = validateReset(link, values);
    setMessage(problem ? { error: problem } : {});
    if (problem === null && link.key && link.email) {
      mutation.mutate({ email: link.email, form: resetForm(link.key, values) });
    }
  };

  return (
    <AuthShell
      title="Choose a new password"
      subtitle={link.email ? <>For {link.email}</> : undefined}
      footer={<FooterLink to="/login">Back to login</FooterLink>}
    >
      <Form onSubmit={submit} className="space-y-4" data-testid="reset-form">
        <TextField label="Recovery key" name="recovery_key" value={link.key ?? ''} readOnly />
        <NewPasswordFields
          labels={['New password', 'Confirm new password']}
          password={text('password')}
          confirm={text('confirmPassword')}
        />
        <SubmitRow
          message={message}
          pending={mutation.isPending}
          labels={['Set new password', 'Saving…']}
          instead={
            mutation.isSuccess ? (
              <Link to="/login" className={`${primaryButtonClass} w-full`}>
                Go to login
              </Link>
            ) : undefined
          }
        />
      </Form>
    </AuthShell>
  );
}
