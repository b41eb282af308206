import { useUserInfo } from '../../api/queries';
import { focusRing } from '../form';

/** The banner's sentence: who the browser is logged in as, and how the admin ends it (docs/admin.md). */
export function impersonationText(email: string): string {
  return `You are logged in as ${email} as an admin. Log out to end it.`;
}

/**
 * Shown on every page while the session is one an admin opened as a user (`user/info` says `impersonated`;
 * docs/admin.md, Logging in as a user), at the top of the sticky header so it stays in sight while the page
 * scrolls. Its Log out is the site's logout, which ends the impersonation. Asks `user/info` only while the
 * logged-in flag is set.
 */
export function ImpersonationBanner({ isLoggedIn, onLogout }: { isLoggedIn: boolean; onLogout: () => void }) {
  const info = useUserInfo({ enabled: isLoggedIn }).data;
  if (!isLoggedIn || !info?.impersonated) return null;
  return (
    <div
      role="status"
      data-testid="impersonation-banner"
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 bg-red-700 px-4 py-2 text-center text-sm font-medium text-white"
    >
      <p className="min-w-0 break-words">{impersonationText(info.email)}</p>
      <button
        type="button"
        data-testid="impersonation-logout"
        onClick={onLogout}
        className={`shrink-0 rounded-md bg-white px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50 ${focusRing}`}
      >
        Log out
      </button>
    </div>
  );
}
