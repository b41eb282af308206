import { ALGORITHM_KEYS, ALGORITHM_NAMES } from '@lodestone/domain';
import { z } from 'zod';

export const algorithmKey = z.enum(ALGORITHM_KEYS);
export const algorithmName = z.enum(ALGORITHM_NAMES);

/** Every error the API returns: a human message (shown as is by the website) and a stable code. */
export const errorResponse = z.object({
  error: z.string(),
  code: z.string(),
});

/** A page number from a form or a query string (text) or JSON (number); absent or empty means the first page. */
export const pageNumber = z.preprocess(
  (v) => (v === undefined || v === '' ? 1 : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ error: 'page must be a whole number' }).int().min(1).max(1_000_000),
);
