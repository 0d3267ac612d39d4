// Document 1 §Pagination, validated lists (datasets, items, queue): `page` integer ≥ 1 and `limit`
// integer 1 to 200, decimals truncated first; anything else is a 422. Defaults: page 1, limit 10.
import { z } from 'zod';

export const VALIDATED_LIST = { defaultLimit: 10, maxLimit: 200 } as const;

export const paginationMessages = {
  page: 'page must be an integer of at least 1.',
  limit: `limit must be an integer between 1 and ${VALIDATED_LIST.maxLimit}.`,
};

/** An integer from min to max (decimals truncated, empty → fallback), else a 422 with `message`. */
export const truncated = (message: string, min: number, max: number, fallback: number) =>
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

/** The highest page whose offset, `(page - 1) * limit`, is still an exact integer for Postgres. */
const lastReachablePage = (maxLimit: number): number => Math.floor(Number.MAX_SAFE_INTEGER / maxLimit);

/**
 * Clamped lists (document 1 §Pagination: sources, logs): never an error, always a page. Page below 1
 * or non-numeric → 1; limit over the max → max; 0 or non-numeric → default; negative → 1.
 */
export const clampedPage = (defaultLimit: number, maxLimit: number) =>
  z.object({ page: z.unknown().optional(), limit: z.unknown().optional() }).transform(({ page, limit }) => {
    const whole = (value: unknown, fallback: number): number => {
      const number = typeof value === 'string' && value.trim() !== '' ? Math.trunc(Number(value)) : Number.NaN;
      return Number.isFinite(number) ? number : fallback;
    };
    const p = whole(page, 1);
    const l = whole(limit, defaultLimit);
    // `page=1e308` is a finite number whose offset is not: past the last page any can reach, the
    // answer is the same empty page, so the page is clamped where the offset stays exact.
    return { page: p < 1 ? 1 : Math.min(p, lastReachablePage(maxLimit)), limit: l === 0 ? defaultLimit : l < 0 ? 1 : Math.min(l, maxLimit) };
  });
