import { VIP_DIAL_CODES, VIP_MESSAGES } from '@lodestone/contract';

/**
 * The VIP application form's rules (docs/website.md, VIP Application), kept pure so the
 * messages and the order of checks are tested on their own.
 *
 * The dial codes and messages are the contract's own (packages/contract vip.ts, plain constants the
 * server checks with): importing them bundles no zod, which `npm run bench:web` checks.
 */
export const DIAL_CODES = VIP_DIAL_CODES;
export const MESSAGES = VIP_MESSAGES;
/** The dial code selector defaults to +1 (US, the first entry). */
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

/** The field checks, one message per field. The robot check comes after these pass. */
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
