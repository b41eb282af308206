/**
 * The account screens' messages. Those the spec quotes (section 5 and 8) are here verbatim; the rest
 * cover cases the spec leaves unshown (a required field left empty, a malformed e-mail address).
 */
export const MESSAGES = {
  robot: 'Please verify you are not a robot.',
  passwordsMismatch: 'Passwords do not match',
  terms: 'You must accept the terms and conditions',
  unexpected: 'An unexpected error occurred',
  invalidRecoveryKey: 'Invalid recovery key',
  invalidMail: 'Invalid mail',
  linkSent: 'Link sent! Check your mail',
  linkFailed: 'Failed to send reset link.',
  couponApplied: 'Discount applied',
  couponFailed: 'An error occurred. Please try again.',
  settingsSaved: 'Saved successfully',
  settingsFailed: 'An error occurred',
  redirectSaved: 'Settings saved successfully',
  redirectFailed: 'Failed to save settings.',
  // Not quoted by the spec:
  emailRequired: 'Email is required.',
  emailInvalid: 'Enter a valid email address.',
  passwordRequired: 'Password is required.',
  usernameRequired: 'Username is required.',
  couponRequired: 'Enter a coupon code.',
  passwordChanged: 'Your password has been changed. You can log in with it now.',
} as const;
