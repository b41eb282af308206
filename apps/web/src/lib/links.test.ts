import { describe, expect, it } from 'vitest';
import { mailtoHref, safeExternalUrl, telHref } from './links';

describe('safeExternalUrl', () => {
  it('accepts absolute http, https and mailto URLs', () => {
    expect(safeExternalUrl('https://blog.example.org/')).toBe('https://blog.example.org/');
    expect(safeExternalUrl(' http://status.example.org ')).toBe('http://status.example.org/');
    expect(safeExternalUrl('mailto:hi@example.org')).toBe('mailto:hi@example.org');
  });

  it.each([
    null,
    undefined,
    '',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,x',
    '/relative',
    'not a url',
  ])('refuses %j', (url) => {
    expect(safeExternalUrl(url)).toBeNull();
  });
});

describe('telHref', () => {
  it('keeps the leading plus and the digits', () => {
    expect(telHref('+49 30 123-456')).toBe('tel:+4930123456');
    expect(telHref('(555) 010 0199')).toBe('tel:5550100199');
  });

  it('is null without digits', () => {
    expect(telHref('')).toBeNull();
    expect(telHref(null)).toBeNull();
    expect(telHref('n/a')).toBeNull();
  });
});

describe('mailtoHref', () => {
  it('links one e-mail address', () => {
    expect(mailtoHref(' support@example.org ')).toBe('mailto:support@example.org');
  });

  it('is null for anything else', () => {
    for (const text of [null, undefined, '', 'support', 'a b@example.org', 'x@y']) expect(mailtoHref(text)).toBeNull();
  });
});
