import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { generate2fa, setTwoFactor, twoFactorQrUrl } from '../../../api/account';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { CopyButton } from '../../../components/CopyButton';
import { Form, FormMessage, primaryButtonClass, TextField } from '../../../components/form';
import { Modal } from '../../../components/Modal';
import { MESSAGES } from '../messages';
import { twoFactorForm } from './settings';

/** Enabling 2FA shows the QR image and the secret, then a code is submitted. Success reloads the page. */
export function EnableTwoFactorModal({ onClose }: { onClose: () => void }) {
  // A new pending secret each time the modal opens; it becomes active only with a valid code.
  const secret = useQuery({
    queryKey: queryKeys.twoFactorSecret,
    queryFn: generate2fa,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
  return (
    <Modal title="Enable two-factor authentication" onClose={onClose} testId="enable-2fa-modal">
      {secret.data ? (
        <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
          <p>
            Scan this code with an authenticator app (or type the secret into it), then enter your password and the
            6-digit code the app shows.
          </p>
          <img
            src={twoFactorQrUrl(secret.data.result)}
            alt="QR code of your two-factor secret"
            width={200}
            height={200}
            className="mx-auto size-50 rounded-lg bg-white p-2"
          />
          <div>
            <p className="mb-1 font-medium">Secret</p>
            <div className="flex items-center gap-2">
              <code
                data-testid="2fa-secret"
                className="min-w-0 flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-xs break-all dark:bg-slate-800"
              >
                {secret.data.result}
              </code>
              <CopyButton text={secret.data.result} label="Copy the secret" />
            </div>
          </div>
          <CodeForm enable onDone={() => window.location.reload()} />
        </div>
      ) : secret.error ? (
        <FormMessage error={serverErrorText(secret.error, MESSAGES.settingsFailed)} />
      ) : (
        <p role="status" className="py-6 text-center text-slate-500">
          Loading…
        </p>
      )}
    </Modal>
  );
}

/**
 * Disabling needs a current code and, ours, the password: a session cookie alone cannot
 * switch 2FA off (docs/accounts.md). Success reloads the page.
 */
export function DisableTwoFactorModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Disable two-factor authentication" onClose={onClose} testId="disable-2fa-modal">
      <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
        <p>
          Enter your password and the 6-digit code from your authenticator app to turn two-factor authentication off.
        </p>
        <CodeForm enable={false} onDone={() => window.location.reload()} />
      </div>
    </Modal>
  );
}

/** Password and code; both modals send both (twoFactorForm). */
function CodeForm({ enable, onDone }: { enable: boolean; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const mutation = useMutation({
    mutationFn: (form: FormData) => setTwoFactor(enable, form),
    onSuccess: onDone,
  });
  const submit = () => {
    // A 6-digit code, no client check; the server says what is wrong.
    if (!mutation.isPending) mutation.mutate(twoFactorForm(password, code));
  };
  return (
    <Form onSubmit={submit} className="space-y-4">
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        data-testid="2fa-password"
      />
      <TextField
        label="Code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="123456"
        maxLength={6}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        data-testid="2fa-code"
      />
      <FormMessage error={mutation.error ? serverErrorText(mutation.error, MESSAGES.settingsFailed) : null} />
      <button type="submit" className={`${primaryButtonClass} w-full`} disabled={mutation.isPending}>
        {mutation.isPending ? 'Checking…' : enable ? 'Enable 2FA' : 'Disable 2FA'}
      </button>
    </Form>
  );
}
