import { ACCOUNT_MESSAGES } from '@lodestone/contract';

/**
 * The account screens' messages. The fixed texts are kept here word for word (docs/website.md, Forms and messages).
 * What is wrong with a field (an empty or malformed e-mail, a short password, …) is said in the contract's words
 * (ACCOUNT_MESSAGES in packages/contract), the same the server answers.
 */
export const MESSAGES = {
  robot: ACCOUNT_MESSAGES.robot,
  passwordsMismatch: 'Passwords do not match',
  terms: 'You must accept the terms and conditions',
  unexpected: 'An unexpected error occurred',
  invalidRecoveryKey: ACCOUNT_MESSAGES.recoveryKey,
  invalidMail: 'Invalid mail',
  linkSent: 'Link sent! Check your mail',
  linkFailed: 'Failed to send reset link.',
  couponApplied: 'Discount applied',
  couponFailed: 'An error occurred. Please try again.',
  settingsSaved: 'Saved successfully',
  settingsFailed: 'An error occurred',
  redirectSaved: 'Settings saved successfully',
  redirectFailed: 'Failed to save settings.',
  // Ours (the field rules' messages are the contract's, ACCOUNT_MESSAGES):
  passwordChanged: 'Your password has been changed. You can log in with it now.',
} as const;
