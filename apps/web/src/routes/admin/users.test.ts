import { describe, expect, it } from 'vitest';
import { filterUsers, formatLastLogin, matchesTerms, searchTerms, usersPage } from './users';

const user = (email: string, ...usernames: string[]) => ({ email, usernames });
const USERS = [
  user('alice@example.org', 'AliceMiner', 'alice-two'),
  user('bob@pool.example', 'bobrig'),
  user('carol@example.net', 'C4rol'),
  user('dave@example.org'),
];
const emails = (list: readonly { email: string }[]) => list.map((u) => u.email);

describe('users search', () => {
  it('splits on commas, trims, lower-cases and drops empty terms', () => {
    expect(searchTerms('')).toEqual([]);
    expect(searchTerms('  ')).toEqual([]);
    expect(searchTerms(' Alice , ,BOB,  ,')).toEqual(['alice', 'bob']);
    expect(searchTerms('a b')).toEqual(['a b']);
  });

  it('matches any term against the e-mail or any username, whatever the case', () => {
    expect(matchesTerms(user('x@example.org', 'AliceMiner'), ['miner'])).toBe(true);
    expect(matchesTerms(user('x@example.org', 'AliceMiner'), ['bob', 'x@'])).toBe(true);
    expect(matchesTerms(user('x@example.org', 'AliceMiner'), ['bob'])).toBe(false);
    expect(emails(filterUsers(USERS, 'aliceminer'))).toEqual(['alice@example.org']);
    expect(emails(filterUsers(USERS, 'ALICE-TWO'))).toEqual(['alice@example.org']);
    expect(emails(filterUsers(USERS, 'c4ROL'))).toEqual(['carol@example.net']);
    // Several terms: a user matching any of them is kept, in the list's order.
    expect(emails(filterUsers(USERS, 'bobrig, c4rol'))).toEqual(['bob@pool.example', 'carol@example.net']);
    expect(emails(filterUsers(USERS, ' .net ,  nobody ,'))).toEqual(['carol@example.net']);
    // Part of the e-mail (the domain) matches.
    expect(emails(filterUsers(USERS, 'example.org'))).toEqual(['alice@example.org', 'dave@example.org']);
    expect(filterUsers(USERS, 'zzz')).toEqual([]);
  });

  it('shows everyone for an empty search (or only commas and spaces)', () => {
    expect(filterUsers(USERS, '')).toEqual(USERS);
    expect(filterUsers(USERS, ' , ,')).toEqual(USERS);
  });
});

describe('users paging (10 a page)', () => {
  const many = Array.from({ length: 23 }, (_, i) => i + 1);

  it('pages by 10, clamped between the first and last page', () => {
    const first = usersPage(many, 1);
    expect(first.rows).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(first.window).toMatchObject({ page: 1, pageCount: 3, hasPrev: false, hasNext: true });
    const last = usersPage(many, 3);
    expect(last.rows).toEqual([21, 22, 23]);
    expect(last.window).toMatchObject({ page: 3, hasPrev: true, hasNext: false });
    expect(usersPage(many, 9).window.page).toBe(3);
    expect(usersPage(many, 0).window.page).toBe(1);
  });

  it('has one empty page when nothing matches: Prev and Next both disabled', () => {
    expect(usersPage([], 1)).toEqual({
      rows: [],
      window: { page: 1, pageCount: 1, start: 0, end: 0, hasPrev: false, hasNext: false },
    });
  });
});

describe('formatLastLogin', () => {
  it('shows the UTC minute, or Never', () => {
    expect(formatLastLogin('2026-05-03T14:07:09.123Z')).toBe('2026-05-03 14:07 UTC');
    expect(formatLastLogin(null)).toBe('Never');
    expect(formatLastLogin('garbage')).toBe('garbage');
  });
});
