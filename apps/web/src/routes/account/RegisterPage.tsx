import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { register } from '../../api/account';
import { serverErrorText } from '../../api/errors';
import { USER_QUERY_ROOT } from '../../api/queryKeys';
import { FormMessage, linkClass, primaryButtonClass, TextField } from '../../components/form';
import { RobotCheck, type RobotCheckHandle } from '../../components/RobotCheck';
import { AuthShell } from './AuthShell';
import { type RegisterValues, referralFromQuery, registerForm, validateRegister } from './forms';
import { MESSAGES } from './messages';
import { NewPasswordFields } from './NewPasswordFields';
import { useFormFields } from './useFormFields';

/**
 * Register (docs/decisions.md, Account pages (website)). The `r` query parameter pre-fills the referral code and makes
 * it read-only. Success logs the new user in and goes to /dashboard.
 */
export default function RegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
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
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const robot = useRef<RobotCheckHandle>(null);

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: USER_QUERY_ROOT });
      navigate('/dashboard');
    },
    onError: (failure) => {
      // The token was spent on this attempt: a new robot check for the next one.
      robot.current?.reset();
      setError(serverErrorText(failure, MESSAGES.unexpected));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
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
        <p>
          Already registered?{' '}
          <Link to="/login" className={linkClass}>
            Login
          </Link>
        </p>
      }
    >
      <form noValidate onSubmit={submit} className="space-y-4" data-testid="register-form">
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
        <FormMessage error={error} />
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={mutation.isPending}>
          {mutation.isPending ? 'Creating your account…' : 'Register'}
        </button>
      </form>
    </AuthShell>
  );
}
