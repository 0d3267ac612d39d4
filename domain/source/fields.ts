// Document 2's rules for a data source's fields (PATCH; create uses the same messages).
import { z } from 'zod';

export const sourceMessages = {
  endpointText: 'endpoint must be a string',
  endpointUrl: 'endpoint must be a valid URL',
  syncPeriod: 'syncPeriod must be 0 (Never) or at least 60 minutes',
  status: 'status must be "active" or "inactive"',
  generative: 'disableGenerativeAssets must be a boolean',
  noFields: 'No valid fields to update',
  type: 'type must be "shopify-api"',
};

/** `<endpoint>/products.json`: the suffix is added when missing (document 1, DataSource). */
export function feedEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/products.json') ? path : `${path}/products.json`;
  return url.toString();
}

const absoluteUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

export const endpointField = z.string({ error: sourceMessages.endpointText }).refine(absoluteUrl, sourceMessages.endpointUrl).transform(feedEndpoint);

/** Numeric strings accepted, fractions truncated; 0 or at least 60. */
export const syncPeriodField = z
  .union([z.number(), z.string().regex(/^\s*\d+(\.\d+)?\s*$/, sourceMessages.syncPeriod)], { error: sourceMessages.syncPeriod })
  .transform((value) => Math.trunc(Number(value)))
  .refine((minutes) => minutes === 0 || (minutes >= 60 && minutes <= 525_600), sourceMessages.syncPeriod);

export const statusField = z.enum(['active', 'inactive'], { error: sourceMessages.status });
export const generativeField = z.boolean({ error: sourceMessages.generative });

export const updateSourceBody = z
  .object({ endpoint: endpointField.optional(), syncPeriod: syncPeriodField.optional(), status: statusField.optional(), disableGenerativeAssets: generativeField.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), sourceMessages.noFields);

export const createSourceBody = z.object({
  type: z.literal('shopify-api', { error: sourceMessages.type }),
  endpoint: endpointField,
  syncPeriod: syncPeriodField.optional(),
  status: statusField.optional(),
  disableGenerativeAssets: generativeField.optional(),
});

/** Create's default schedule: once a day. */
export const DEFAULT_SYNC_PERIOD = 1440;
