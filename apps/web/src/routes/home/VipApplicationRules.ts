/**
 * The VIP application form's rules (spec 3 "VIP application", 4 "VIP form", 5, 8), kept pure so the
 * messages and the order of checks are tested on their own.
 *
 * The dial codes and messages are packages/contract's VIP_DIAL_CODES and VIP_MESSAGES, which the
 * server checks with. They are written out here because importing values from the contract would
 * bundle zod (about 80 kB) into the page; VipApplicationRules.test.ts proves the copies are equal.
 */
export const DIAL_CODES = [
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

export const MESSAGES = {
  nameRequired: 'Name is required.',
  hashrateRequired: 'Hashrate is required.',
  invalidEmail: 'Invalid email format.',
  invalidPhone: 'Enter a valid phone number (7–15 digits only).',
  captcha: 'Please verify you are not a robot.',
  sent: 'Application sent, we will contact you very soon!',
  failed: 'Network or server error.',
} as const;
/** Spec 3: the dial code selector defaults to +1 (US, the first entry). */
export const DEFAULT_DIAL_INDEX = 0;

export interface VipFields {
  name: string;
  email: string;
  /** Index into DIAL_CODES (US and Canada share +1, so the code alone cannot be the value). */
  dialIndex: number;
  /** The number without its dial code; optional. */
  phone: string;
  /** The "Hashrate" field: the operation and its total hashrate per algorithm, free text. */
  operations: string;
}

export type VipField = 'name' | 'email' | 'phone' | 'operations';
export type VipErrors = Partial<Record<VipField, string>>;

/**
 * An e-mail address as the server accepts it: a local part of letters, digits and `_ ' + - .`
 * (not starting with a dot, no two dots in a row), "@", and a domain of labels ending in a
 * top-level domain of at least two letters.
 */
const EMAIL = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+.-]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function isValidEmail(email: string): boolean {
  const trimmed = email.trim();
  return trimmed.length <= 254 && EMAIL.test(trimmed);
}

/** The phone number's digits, spaces removed; empty when none was given. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\s+/g, '');
}

/** Spec 5: the field checks, one message per field. The robot check comes after these pass (spec 4). */
export function validateVip(fields: VipFields): VipErrors {
  const errors: VipErrors = {};
  if (fields.name.trim() === '') errors.name = MESSAGES.nameRequired;
  if (fields.operations.trim() === '') errors.operations = MESSAGES.hashrateRequired;
  if (!isValidEmail(fields.email)) errors.email = MESSAGES.invalidEmail;
  const digits = phoneDigits(fields.phone);
  if (digits !== '' && !/^\d{7,15}$/.test(digits)) errors.phone = MESSAGES.invalidPhone;
  return errors;
}

/** "+44 7911123456", or '' without a number. */
export function vipPhone(fields: Pick<VipFields, 'dialIndex' | 'phone'>): string {
  const digits = phoneDigits(fields.phone);
  if (digits === '') return '';
  const dial = DIAL_CODES[fields.dialIndex] ?? DIAL_CODES[DEFAULT_DIAL_INDEX];
  return `${dial?.code ?? '+1'} ${digits}`;
}

/** The multipart body of POST /v1/email/hashrate. */
export function vipFormData(fields: VipFields, captchaToken: string): FormData {
  const form = new FormData();
  form.set('name', fields.name.trim());
  form.set('email', fields.email.trim());
  form.set('phone', vipPhone(fields));
  form.set('operations', fields.operations.trim());
  form.set('captchaToken', captchaToken);
  return form;
}
