import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { login } from '../../api/account';
import { ApiError } from '../../api/errors';
import { USER_QUERY_ROOT } from '../../api/queryKeys';
import { FormMessage, linkClass, primaryButtonClass, TextField } from '../../components/form';
import { RobotCheck, type RobotCheckHandle } from '../../components/RobotCheck';
import { AuthShell } from './AuthShell';
import { type LoginValues, loginForm, validateLogin } from './forms';
import { MESSAGES } from './messages';
import { useFormFields } from './useFormFields';

/**
 * Login (docs/decisions.md, Account pages (website)): Email, Password, 2FA (optional), robot check. Success goes to
 * /dashboard.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { values, text } = useFormFields<LoginValues>({ email: '', password: '', code: '' });
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const robot = useRef<RobotCheckHandle>(null);

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: USER_QUERY_ROOT });
      navigate('/dashboard');
    },
    onError: (failure) => {
      // A refusal: robot check reset, the server's text shown.
      robot.current?.reset();
      setError(failure instanceof ApiError ? failure.message : MESSAGES.unexpected);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const problem = validateLogin(values, captchaToken);
    setError(problem);
    if (problem === null && captchaToken) mutation.mutate(loginForm(values, captchaToken));
  };

  return (
    <AuthShell
      title="Login"
      subtitle="Log in to manage your workers, payouts and accounts."
      footer={
        <>
          <p>
            No account yet?{' '}
            <Link to="/register" className={linkClass}>
              Register
            </Link>
          </p>
          <p>
            <Link to="/forgotPassword" className={linkClass}>
              Forgot password? Click here
            </Link>
          </p>
        </>
      }
    >
      <form noValidate onSubmit={submit} className="space-y-4" data-testid="login-form">
        <TextField label="Email" type="email" autoComplete="email" required {...text('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" required {...text('password')} />
        <TextField
          label="2FA code (optional)"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="123456"
          maxLength={6}
          hint="Only if two-factor authentication is enabled on your account."
          {...text('code')}
        />
        <RobotCheck ref={robot} onTokenChange={setCaptchaToken} />
        <FormMessage error={error} />
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={mutation.isPending}>
          {mutation.isPending ? 'Logging in…' : 'Login'}
        </button>
      </form>
    </AuthShell>
  );
}
