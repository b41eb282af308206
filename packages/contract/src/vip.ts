/**
 * The VIP application form's dial codes and messages (docs/website.md, VIP Application): plain constants, without
 * zod, so the website imports the very values the server checks with (public.ts) and its bundle
 * stays free of the schemas.
 */

/** The dial codes of the phone field, in the selector's order; the first is the default. */
export const VIP_DIAL_CODES = [
  { country: 'US', code: '+1' },
  { country: 'UK', code: '+44' },
  { country: 'Germany', code: '+49' },
  { country: 'France', code: '+33' },
  { country: 'Italy', code: '+39' },
  { country: 'Spain', code: '+34' },
  { country: 'Mexico', code: '+52' },
  { country: 'Argentina', code: '+54' },
  { country: 'Colombia', code: '+57' },
  { country: 'Chile', code: '+56' },
  { country: 'Portugal', code: '+351' },
  { country: 'Australia', code: '+61' },
  { country: 'Canada', code: '+1' },
  { country: 'Brazil', code: '+55' },
  { country: 'Japan', code: '+81' },
  { country: 'China', code: '+86' },
  { country: 'India', code: '+91' },
] as const;

/** The form's messages (fixed texts); the server refuses with the same words. */
export const VIP_MESSAGES = {
  nameRequired: 'Name is required.',
  nameTooLong: 'Name must be at most 200 characters.',
  nameOneLine: 'Name must be one line of text.',
  hashrateRequired: 'Hashrate is required.',
  hashrateTooLong: 'Please describe your operation in at most 5000 characters.',
  invalidEmail: 'Invalid email format.',
  invalidPhone: 'Enter a valid phone number (7–15 digits only).',
  captcha: 'Please verify you are not a robot.',
  sent: 'Application sent, we will contact you very soon!',
  failed: 'Network or server error.',
} as const;
