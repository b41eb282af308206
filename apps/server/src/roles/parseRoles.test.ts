import { describe, expect, it } from 'vitest';
import { parseRoles, UsageError } from './parseRoles.js';

describe('parseRoles', () => {
  it('runs every role by default', () => {
    expect([...parseRoles([])]).toEqual(['api', 'stratum', 'jobs']);
  });

  it('takes a comma-separated list', () => {
    expect([...parseRoles(['--role=stratum, jobs'])]).toEqual(['stratum', 'jobs']);
    expect([...parseRoles(['--role', 'api'])]).toEqual(['api']);
  });

  it('refuses unknown roles and unknown flags', () => {
    expect(() => parseRoles(['--role=miner'])).toThrow(UsageError);
    expect(() => parseRoles(['--role='])).toThrow(/--role/);
    expect(() => parseRoles(['--port=1'])).toThrow(UsageError);
  });
});
