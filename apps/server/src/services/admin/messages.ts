/**
 * What the admin calls answer when they refuse (docs/admin.md). The website shows the server's text
 * as it is, so these are written for staff to read.
 */
export const ADMIN_MESSAGES = {
  twoFactorRequired:
    'Admin tools need two-factor authentication on your user. Enable 2FA in Settings, then log out and log in again with your 2FA code.',
  twoFactorLoginRequired:
    'Admin tools need a login with your 2FA code. Log out and log in again with your 2FA code, then retry.',
  userNotFound: 'No user has this e-mail address',
  accountNotFound: 'Account not found',
  targetIsAdmin: 'Admins cannot log in as another admin',
  unknownCoin: 'Unknown coin',
  belowZero: (username: string, balance: string, ticker: string) =>
    `Refused: ${username} has ${balance} ${ticker}, so this debit would take the balance below zero.`,
} as const;
