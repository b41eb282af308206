import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { requestPasswordReset } from '../../api/account';
import { serverErrorText } from '../../api/errors';
import { Form, TextField } from '../../components/form';
import { RobotCheck, type RobotCheckHandle } from '../../components/RobotCheck';
import { AuthShell, FooterLink, SubmitRow } from './AuthShell';
import { forgotPasswordForm, validateForgotPassword } from './forms';
import { MESSAGES } from './messages';

/**
 * Forgot password (docs/accounts.md, Password recovery): e-mail and robot check. The server answers the same
 * whether the address is registered or not, so the page does too.
 */
export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const robot = useRef<RobotCheckHandle>(null);

  const mutation = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: () => setMessage({ success: MESSAGES.linkSent }),
    onError: (failure) => setMessage({ error: serverErrorText(failure, MESSAGES.linkFailed) }),
    // The token is single-use, whatever the answer.
    onSettled: () => robot.current?.reset(),
  });

  const submit = () => {
    if (mutation.isPending) return;
    const problem = validateForgotPassword(email, captchaToken);
    setMessage(problem ? { error: problem } : {});
    if (problem === null && captchaToken) mutation.mutate(forgotPasswordForm(email, captchaToken));
  };

  return (
    <AuthShell
      title="Forgot password"
      subtitle="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={
        <FooterLink lead="Remembered it?" to="/login">
          Back to login
        </FooterLink>
      }
    >
      <Form onSubmit={submit} className="space-y-4" data-testid="forgot-form">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <RobotCheck ref={robot} onTokenChange={setCaptchaToken} />
        <SubmitRow message={message} pending={mutation.isPending} labels={['Send reset link', 'Sending…']} />
      </Form>
    </AuthShell>
  );
}
