import { login } from '../../api/account';
import { ApiError } from '../../api/errors';
import { Form, TextField } from '../../components/form';
import { RobotCheck } from '../../components/RobotCheck';
import { AuthShell, FooterLink, SubmitRow } from './AuthShell';
import { type LoginValues, loginForm, validateLogin } from './forms';
import { MESSAGES } from './messages';
import { useFormFields } from './useFormFields';
import { useSignIn } from './useSignIn';

/**
 * Login (docs/decisions.md, Account pages (website)): Email, Password, 2FA (optional), robot check. Success goes to
 * /dashboard.
 */
export default function LoginPage() {
  const { values, text } = useFormFields<LoginValues>({ email: '', password: '', code: '' });
  // A refusal: robot check reset, the server's text shown.
  const { mutation, captchaToken, setCaptchaToken, error, setError, robot } = useSignIn(login, (failure) =>
    failure instanceof ApiError ? failure.message : MESSAGES.unexpected,
  );

  const submit = () => {
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
          <FooterLink lead="No account yet?" to="/register">
            Register
          </FooterLink>
          <FooterLink to="/forgotPassword">Forgot password? Click here</FooterLink>
        </>
      }
    >
      <Form onSubmit={submit} className="space-y-4" data-testid="login-form">
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
        <SubmitRow message={{ error }} pending={mutation.isPending} labels={['Login', 'Logging in…']} />
      </Form>
    </AuthShell>
  );
}
