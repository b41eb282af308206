import type { SiteResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../testing/poolAnswers';
import { siteContacts, supportEmail } from './contacts';

function site(contacts: Pick<SiteResponse, 'support_email' | 'phone_eu' | 'phone_us' | 'chat_handle'>): SiteResponse {
  return buildSite({ stratum_host: 'localhost', demo: true, demo_valuation: 'reference', ...contacts });
}

describe('site contacts', () => {
  it('marks contacts the operator has not configured (null) with the setting to set, never a made-up address', () => {
    const all = site({ support_email: null, phone_eu: null, phone_us: null, chat_handle: null });
    expect(siteContacts(all, ['email', 'phone_eu', 'phone_us', 'chat'])).toEqual([
      { kind: 'email', configured: false, setting: 'SUPPORT_EMAIL' },
      { kind: 'phone_eu', configured: false, setting: 'PHONE_EU' },
      { kind: 'phone_us', configured: false, setting: 'PHONE_US' },
      { kind: 'chat', configured: false, setting: 'CHAT_HANDLE' },
    ]);
    expect(supportEmail(all)).toEqual({ kind: 'email', configured: false, setting: 'SUPPORT_EMAIL' });
  });

  it('shows configured contacts with their links and leaves out the ones set to none', () => {
    const some = site({
      support_email: ' help@acme.example ',
      phone_eu: '+49 30 1234567',
      phone_us: '',
      chat_handle: '@acme',
    });
    expect(siteContacts(some, ['email', 'phone_eu', 'phone_us', 'chat'])).toEqual([
      { kind: 'email', configured: true, text: 'help@acme.example', href: 'mailto:help@acme.example' },
      { kind: 'phone_eu', configured: true, text: '+49 30 1234567', href: 'tel:+49301234567' },
      { kind: 'chat', configured: true, text: '@acme', href: null },
    ]);
  });

  it('has nothing to show before the site information loads', () => {
    expect(siteContacts(undefined, ['email'])).toEqual([]);
    expect(supportEmail(undefined)).toBeUndefined();
  });
});
