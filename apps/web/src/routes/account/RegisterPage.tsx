import { Link, useSearchParams } from 'react-router';
import { register } from '../../api/account';
import { serverErrorText } from '../../api/errors';
import { Form, linkClass, TextField } from '../../components/form';
import { RobotCheck } from '../../components/RobotCheck';
import { AuthShell, FooterLink, SubmitRow } from './AuthShell';
import { type RegisterValues, referralFromQuery, registerForm, validateRegister } from './forms';
import { MESSAGES } from './messages';
import { NewPasswordFields } from './NewPasswordFields';
import { useFormFields } from './useFormFields';
import { useSignIn } from './useSignIn';

/**
 * Register (docs/decisions.md, Account pages (website)). The `r` query parameter pre-fills the referral code and makes
 * it read-only. Success logs the new user in and goes to /dashboard.
 */
export default function RegisterPage() {
  const [search] = useSearchParams();
  const lockedReferral = referralFromQuery(search);
  const { values, text, checkbox } = useFormFields<RegisterValues>({
    username: '',
    email: '',
    password: '',
    confirmPassword: '',
    referral: lockedReferral ?? '',
    acceptTerms: false,
  });
  // The token was spent on this attempt: a new robot check for the next one.
  const { mutation, captchaToken, setCaptchaToken, error, setError, robot } = useSignIn(register, (failure) =>
    serverErrorText(failure, MESSAGES.unexpected),
  );

  const submit = () => {
    if (mutation.isPending) return;
    const current = lockedReferral === null ? values : { ...values, referral: lockedReferral };
    const problem = validateRegister(current, captchaToken);
    setError(problem);
    if (problem === null && captchaToken) mutation.mutate(registerForm(current, captchaToken));
  };

  const referralField = text('referral');
  return (
    <AuthShell
      title="Create your account"
      subtitle="The username is also your mining login: workers connect as username.worker."
      footer={
        <FooterLink lead="Already registered?" to="/login">
          Login
        </FooterLink>
      }
    >
      <Form onSubmit={submit} className="space-y-4" data-testid="register-form">
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          hint="3 to 32 letters, digits, dashes or underscores."
          {...text('username')}
        />
        <TextField label="Email" type="email" autoComplete="email" required {...text('email')} />
        <NewPasswordFields
          labels={['Password', 'Confirm Password']}
          password={text('password')}
          confirm={text('confirmPassword')}
        />
        <TextField
          label="Referral/Discount Code"
          autoCapitalize="none"
          spellCheck={false}
          {...referralField}
          value={lockedReferral ?? referralField.value}
          readOnly={lockedReferral !== null}
          hint={lockedReferral !== null ? 'Set by the link you followed.' : 'Optional.'}
        />
        <RobotCheck ref={robot} onTokenChange={setCaptchaToken} />
        <label className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
          <input
            type="checkbox"
            data-testid="accept-terms"
            className="mt-0.5 size-4 rounded border-slate-300 accent-amber-500"
            {...checkbox('acceptTerms')}
          />
          <span>
            I accept the{' '}
            <Link to="/terms" target="_blank" className={linkClass}>
              terms and conditions
            </Link>
          </span>
        </label>
        <SubmitRow message={{ error }} pending={mutation.isPending} labels={['Register', 'Creating your account…']} />
      </Form>
    </AuthShell>
  );
}
