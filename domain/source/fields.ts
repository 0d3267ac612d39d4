// Document 2's rules for a data source's fields (PATCH; create uses the same messages).
import { z } from 'zod';
import { marketMessages, MAX_MARKETS } from './markets.js';

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

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

const market = z.object({
  handle: z.string({ error: marketMessages.handle }).regex(/^[a-z0-9][a-z0-9-]{0,49}$/, marketMessages.handle),
  countries: z
    .array(z.string().transform((code) => code.trim().toUpperCase()).pipe(z.string().regex(/^[A-Z]{2}$/, marketMessages.countries)), { error: marketMessages.countries })
    .min(1, marketMessages.countries)
    .max(250, marketMessages.countries)
    .transform((codes) => [...new Set(codes)]),
  currency: z
    .string({ error: marketMessages.currency })
    .transform((code) => code.trim().toUpperCase())
    .refine((code) => ISO_CURRENCIES.has(code), marketMessages.currency),
  endpoint: endpointField.nullish().transform((endpoint) => endpoint ?? null),
});

export const marketsField = z
  .array(market, { error: marketMessages.list })
  .max(MAX_MARKETS, marketMessages.list)
  .superRefine((markets, context) => {
    const handles = new Set<string>();
    const countries = new Set<string>();
    for (const entry of markets) {
      if (handles.has(entry.handle)) context.addIssue({ code: 'custom', message: marketMessages.duplicateHandle });
      handles.add(entry.handle);
      for (const country of entry.countries) {
        if (countries.has(country)) context.addIssue({ code: 'custom', message: `${marketMessages.sharedCountry}: ${country}` });
        countries.add(country);
      }
    }
  });

export const createSourceBody = z
  .object({
    type: z.literal('shopify-api', { error: sourceMessages.type }),
    endpoint: endpointField,
    syncPeriod: syncPeriodField.optional(),
    status: statusField.optional(),
    disableGenerativeAssets: generativeField.optional(),
    markets: marketsField.optional(),
    defaultMarket: z.string({ error: marketMessages.defaultMarket }).optional(),
  })
  .superRefine((body, context) => {
    if (body.defaultMarket === undefined) return;
    if (!body.markets?.length) context.addIssue({ code: 'custom', path: ['defaultMarket'], message: marketMessages.defaultWithoutMarkets });
    else if (!body.markets.some((entry) => entry.handle === body.defaultMarket)) context.addIssue({ code: 'custom', path: ['defaultMarket'], message: marketMessages.defaultMarket });
  });

/** Create's default schedule: once a day. */
export const DEFAULT_SYNC_PERIOD = 1440;
