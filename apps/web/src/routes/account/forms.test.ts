import { describe, expect, it } from 'vitest';
import {
  couponForm,
  forgotPasswordForm,
  type LoginValues,
  loginForm,
  queryParam,
  type RegisterValues,
  referralFromQuery,
  registerForm,
  resetForm,
  resetLinkFromQuery,
  validateCoupon,
  validateForgotPassword,
  validateLogin,
  validateRegister,
  validateReset,
} from './forms';

const fields = (form: FormData) => Object.fromEntries(form.entries());

describe('queryParam', () => {
  it('is the trimmed value, or null when absent or blank', () => {
    const search = new URLSearchParams('a=%20x%20&b=&c=%20%20');
    expect(queryParam(search, 'a')).toBe('x');
    expect(queryParam(search, 'b')).toBeNull();
    expect(queryParam(search, 'c')).toBeNull();
    expect(queryParam(search, 'missing')).toBeNull();
  });
});

describe('login', () => {
  const values: LoginValues = { email: ' miner@example.org ', password: 'secret pass', code: '' };

  it('needs an e-mail, a password and the robot check, in that order', () => {
    expect(validateLogin({ ...values, email: '  ' }, null)).toBe('Email is required');
    expect(validateLogin({ ...values, email: 'not-an-address' }, 'token')).toBe('Invalid email address');
    expect(validateLogin({ ...values, email: 'a@b.c' }, 'token')).toBe('Invalid email address');
    // Login asks no length of a password: an old, shorter one must still let its owner in.
    expect(validateLogin({ ...values, password: 'short' }, 'token')).toBeNull();
    expect(validateLogin({ ...values, password: '' }, 'token')).toBe('Password is required');
    expect(validateLogin(values, null)).toBe('Please verify you are not a robot.');
    expect(validateLogin(values, '')).toBe('Please verify you are not a robot.');
    expect(validateLogin(values, 'token')).toBeNull();
  });

  it('treats the 2FA code as optional, without a client check', () => {
    expect(validateLogin({ ...values, code: '12' }, 'token')).toBeNull();
  });

  it('sends email, password, code and captchaToken; the password is sent as typed', () => {
    expect(fields(loginForm({ ...values, code: ' 123456 ' }, 'tok'))).toEqual({
      email: 'miner@example.org',
      password: 'secret pass',
      code: '123456',
      captchaToken: 'tok',
    });
    expect(fields(loginForm(values, 'tok')).code).toBe('');
  });
});

describe('register', () => {
  const values: RegisterValues = {
    username: ' miner01 ',
    email: 'miner@example.org',
    password: 'correct horse',
    confirmPassword: 'correct horse',
    referral: ' FRIEND ',
    acceptTerms: true,
  };

  it('checks required fields, matching passwords, terms, then the robot check', () => {
    expect(validateRegister({ ...values, username: ' ' }, 'tok')).toBe('Username is required');
    expect(validateRegister({ ...values, username: 'ab' }, 'tok')).toBe(
      'Username must be 3 to 32 letters, digits, dashes or underscores',
    );
    expect(validateRegister({ ...values, email: '' }, 'tok')).toBe('Email is required');
    expect(validateRegister({ ...values, email: 'miner@example' }, 'tok')).toBe('Invalid email address');
    expect(validateRegister({ ...values, password: '', confirmPassword: '' }, 'tok')).toBe('Password is required');
    expect(validateRegister({ ...values, confirmPassword: '' }, 'tok')).toBe('Password is required');
    expect(validateRegister({ ...values, password: 'short', confirmPassword: 'short' }, 'tok')).toBe(
      'Password must be at least 10 characters',
    );
    expect(validateRegister({ ...values, confirmPassword: 'correct horse!' }, null)).toBe('Passwords do not match');
    expect(validateRegister({ ...values, acceptTerms: false }, null)).toBe('You must accept the terms and conditions');
    expect(validateRegister(values, null)).toBe('Please verify you are not a robot.');
    expect(validateRegister(values, 'tok')).toBeNull();
  });

  it('compares passwords exactly (no trimming)', () => {
    expect(validateRegister({ ...values, confirmPassword: 'correct horse ' }, 'tok')).toBe('Passwords do not match');
  });

  it('sends username, email, password, referral and captchaToken', () => {
    expect(fields(registerForm(values, 'tok'))).toEqual({
      username: 'miner01',
      email: 'miner@example.org',
      password: 'correct horse',
      referral: 'FRIEND',
      captchaToken: 'tok',
    });
  });

  it('takes the referral code from the r query parameter', () => {
    expect(referralFromQuery(new URLSearchParams('r=ABC123'))).toBe('ABC123');
    expect(referralFromQuery(new URLSearchParams('r='))).toBeNull();
    expect(referralFromQuery(new URLSearchParams(''))).toBeNull();
  });
});

describe('forgot password', () => {
  it('needs an e-mail and the robot check', () => {
    expect(validateForgotPassword('', 'tok')).toBe('Email is required');
    expect(validateForgotPassword('miner', 'tok')).toBe('Invalid email address');
    expect(validateForgotPassword('miner@example.org', null)).toBe('Please verify you are not a robot.');
    expect(validateForgotPassword('miner@example.org', 'tok')).toBeNull();
    expect(fields(forgotPasswordForm(' miner@example.org ', 'tok'))).toEqual({
      email: 'miner@example.org',
      captchaToken: 'tok',
    });
  });
});

describe('reset password', () => {
  const values = { password: 'new password 1', confirmPassword: 'new password 1' };

  it('reads k and email from the link', () => {
    expect(resetLinkFromQuery(new URLSearchParams('k=abc&email=miner%40example.org'))).toEqual({
      key: 'abc',
      email: 'miner@example.org',
    });
    expect(resetLinkFromQuery(new URLSearchParams(''))).toEqual({ key: null, email: null });
  });

  it('turns an unencoded + in the address back into +', () => {
    expect(resetLinkFromQuery(new URLSearchParams('k=abc&email=miner+pool@example.org')).email).toBe(
      'miner+pool@example.org',
    );
  });

  it('says which part of the link is missing, then checks the passwords', () => {
    expect(validateReset({ key: null, email: 'a@b.co' }, values)).toBe('Invalid recovery key');
    expect(validateReset({ key: 'k', email: null }, values)).toBe('Invalid mail');
    expect(validateReset({ key: 'k', email: 'not-an-address' }, values)).toBe('Invalid mail');
    expect(validateReset({ key: null, email: null }, values)).toBe('Invalid recovery key');
    expect(validateReset({ key: 'k', email: 'a@b.co' }, { ...values, confirmPassword: 'other' })).toBe(
      'Passwords do not match',
    );
    expect(validateReset({ key: 'k', email: 'a@b.co' }, { password: '', confirmPassword: '' })).toBe(
      'Password is required',
    );
    expect(validateReset({ key: 'k', email: 'a@b.co' }, { password: 'short', confirmPassword: 'short' })).toBe(
      'Password must be at least 10 characters',
    );
    expect(validateReset({ key: 'k', email: 'a@b.co' }, values)).toBeNull();
  });

  it('sends password and recovery_key in the body', () => {
    expect(fields(resetForm('key-1', values))).toEqual({ password: 'new password 1', recovery_key: 'key-1' });
  });
});

describe('coupon', () => {
  it('needs a code and sends it trimmed', () => {
    expect(validateCoupon('  ')).toBe('Coupon code is required');
    expect(validateCoupon('SAVE10')).toBeNull();
    expect(fields(couponForm(' SAVE10 '))).toEqual({ coupon: 'SAVE10' });
  });
});
