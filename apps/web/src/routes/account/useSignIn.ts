import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { USER_QUERY_ROOT } from '../../api/queryKeys';
import type { RobotCheckHandle } from '../../components/RobotCheck';

/**
 * The call of a robot-checked form that logs the user in (login, register): on success the previous user's answers
 * are dropped and the page goes to /dashboard; on a refusal the robot check is reset (its token was spent on this
 * attempt) and `errorText` of the failure is shown.
 */
export function useSignIn(mutationFn: (form: FormData) => Promise<unknown>, errorText: (failure: Error) => string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const robot = useRef<RobotCheckHandle>(null);
  const mutation = useMutation({
    mutationFn,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: USER_QUERY_ROOT });
      navigate('/dashboard');
    },
    onError: (failure) => {
      robot.current?.reset();
      setError(errorText(failure));
    },
  });
  return { mutation, captchaToken, setCaptchaToken, error, setError, robot };
}
