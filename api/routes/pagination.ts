// Document 1 §Pagination, validated lists (datasets, items, queue): `page` integer ≥ 1 and `limit`
// integer 1 to 200, decimals truncated first; anything else is a 422. Defaults: page 1, limit 10.
import { z } from 'zod';

export const VALIDATED_LIST = { defaultLimit: 10, maxLimit: 200 } as const;

export const paginationMessages = {
  page: 'page must be an integer of at least 1.',
  limit: `limit must be an integer between 1 and ${VALIDATED_LIST.maxLimit}.`,
};

const truncated = (message: string, min: number, max: number, fallback: number) =>
  z
    .union([z.string(), z.number()], { error: message })
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return fallback;
      const number = typeof value === 'number' ? value : /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
      const whole = Math.trunc(number);
      if (!Number.isFinite(number) || whole < min || whole > max) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return whole;
    });

export const validatedPage = z.object({
  page: truncated(paginationMessages.page, 1, Number.MAX_SAFE_INTEGER, 1).describe('1-based page; decimals are truncated.'),
  limit: truncated(paginationMessages.limit, 1, VALIDATED_LIST.maxLimit, VALIDATED_LIST.defaultLimit).describe(`1 to ${VALIDATED_LIST.maxLimit}, default ${VALIDATED_LIST.defaultLimit}; decimals are truncated.`),
});

export const paginationSchema = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), hasMore: z.boolean() });

export const pagination = (page: number, limit: number, total: number) => ({ page, limit, total, hasMore: page * limit < total });
