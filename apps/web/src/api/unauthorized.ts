import type { RouteName } from '@lodestone/contract';

/**
 * What a 401 answer does (docs/website.md, Session), decided here once for every call:
 * - GET /user/info: the visitor is logged out — flag false, no redirect.
 * - any other call: flag false and go to /login.
 * The calls made before there is a session (login, register, password recovery, referral tracking)
 * also clear the flag but do not redirect: their 401 means "wrong credentials" or "no session yet",
 * and the page that made the call shows the error itself.
 */
export type UnauthorizedAction = 'logged-out' | 'logged-out-and-login';

const NO_REDIRECT = new Set<RouteName>([
  'userInfo',
  'userLogin',
  'userRegister',
  'passwordReset',
  'passwordResetSend',
  'userSetReferral',
]);

/** `name` is the call's entry in the contract's path table. */
export function unauthorizedAction(name: RouteName): UnauthorizedAction {
  return NO_REDIRECT.has(name) ? 'logged-out' : 'logged-out-and-login';
}

/** No redirect when the login page is already showing (it would only reset what the visitor typed). */
export function shouldRedirectToLogin(action: UnauthorizedAction, currentPathname: string): boolean {
  return action === 'logged-out-and-login' && currentPathname.replace(/\/+$/, '').toLowerCase() !== '/login';
}

let goToLogin: () => void = () => window.location.assign('/login');

/**
 * The layout installs the router's navigate here, so the redirect is a client-side navigation; until
 * then (or outside the router) a full page load does it. Returns the function that uninstalls it.
 */
export function setLoginRedirect(navigate: () => void): () => void {
  goToLogin = navigate;
  return () => {
    if (goToLogin === navigate) goToLogin = () => window.location.assign('/login');
  };
}

export function redirectToLogin(): void {
  goToLogin();
}
