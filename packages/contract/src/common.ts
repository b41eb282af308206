import { ALGORITHM_KEYS, ALGORITHM_NAMES } from '@lodestone/domain';
import { z } from 'zod';

export const algorithmKey = z.enum(ALGORITHM_KEYS);
export const algorithmName = z.enum(ALGORITHM_NAMES);

/** Every error the API returns: a human message (shown as is by the website) and a stable code. */
export const errorResponse = z.object({
  error: z.string(),
  code: z.string(),
});
