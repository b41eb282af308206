import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from './client';
import { USER_QUERY_ROOT } from './queryKeys';

/**
 * Logging out, the nav's (this session) and Settings' "Log out everywhere" (every session of the user, this one too;
 * docs/accounts.md, Sessions): once the server has ended it, the browser forgets the user — the logged-in flag
 * (client.ts) and every answer under USER_QUERY_ROOT — and goes to `/` (docs/website.md, Session), or to `/login`
 * after logging out everywhere. A logout the server answers `false` goes to `/dashboard`. A failed call throws, and
 * leaves the session as it is.
 */
export function useLogout(): (everywhere?: boolean) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (everywhere = false) => {
      const loggedOut = await logout(everywhere);
      if (!loggedOut) {
        navigate('/dashboard');
        return;
      }
      queryClient.removeQueries({ queryKey: USER_QUERY_ROOT });
      navigate(everywhere ? '/login' : '/');
    },
    [queryClient, navigate],
  );
}
