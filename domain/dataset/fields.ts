// Document 1's rules for a dataset's fields (Dataset, DatasetConfig) as zod schemas: create refuses
// what is wrong; update cuts where document 1 says "cut on update" and refuses the rest. Messages
// are document 2's style: one sentence naming the field.
import { z } from 'zod';
import { TARGET_GENDERS } from '../catalogue/vocabulary.js';
import type { DatasetConfig, DatasetContent } from './events.js';

export const DATASET_LIMITS = { name: 200, description: 2000, storeId: 200, storeName: 200, storeUrl: 2000, storeDomain: 253 } as const;

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const BARE_DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

export const datasetMessages = {
  required: (field: string) => `${field} is required.`,
  notText: (field: string) => `${field} must be a string.`,
  nameLength: `name must be between 1 and ${DATASET_LIMITS.name} characters.`,
  nameEmpty: 'name must not be empty.',
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters.`,
  notObject: (field: string) => `${field} must be an object.`,
  notBoolean: (field: string) => `${field} must be a boolean.`,
  storeUrl: 'config.storeUrl must be a URL, with or without http:// or https://.',
  storeUrlScheme: 'config.storeUrl must start with http:// or https://.',
  storeDomain: 'config.storeDomain must be a bare domain, without scheme, path or query.',
  currency: 'config.currency must be a 3-letter ISO 4217 currency code.',
  targetGender: `config.targetGender must be ${TARGET_GENDERS.join(', ')} or null.`,
};

const stringOf = (field: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? datasetMessages.required(field) : datasetMessages.notText(field)) });
const objectOf = (field: string) => z.record(z.string(), z.unknown(), { error: datasetMessages.notObject(field) });
const cut = (max: number) => (value: string) => value.slice(0, max);

/** A host with an optional scheme, port, path: what a merchant types as their store's address. */
const looksLikeStoreUrl = (value: string): boolean => {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    const webScheme = url.protocol === 'http:' || url.protocol === 'https:';
    return webScheme && (url.hostname === 'localhost' || (BARE_DOMAIN.test(url.hostname) && url.hostname.includes('.')));
  } catch {
    return false;
  }
};

const currency = stringOf('config.currency').refine((value) => /^[a-z]{3}$/i.test(value) && ISO_CURRENCIES.has(value.toUpperCase()), datasetMessages.currency);
const targetGender = z.enum(TARGET_GENDERS, { error: datasetMessages.targetGender }).nullable();
const storeDomain = stringOf('config.storeDomain').refine((value) => BARE_DOMAIN.test(value), datasetMessages.storeDomain);

const createConfig = z.object(
  {
    storeUrl: stringOf('config.storeUrl').max(DATASET_LIMITS.storeUrl, datasetMessages.tooLong('config.storeUrl', DATASET_LIMITS.storeUrl)).refine(looksLikeStoreUrl, datasetMessages.storeUrl).optional(),
    storeId: stringOf('config.storeId').max(DATASET_LIMITS.storeId, datasetMessages.tooLong('config.storeId', DATASET_LIMITS.storeId)).optional(),
    storeDomain: storeDomain.optional(),
    storeName: stringOf('config.storeName').max(DATASET_LIMITS.storeName, datasetMessages.tooLong('config.storeName', DATASET_LIMITS.storeName)).optional(),
    currency: currency.optional(),
    targetGender: targetGender.optional(),
  },
  { error: datasetMessages.notObject('config') },
);

const updateConfig = z.object(
  {
    storeUrl: stringOf('config.storeUrl')
      .max(DATASET_LIMITS.storeUrl, datasetMessages.tooLong('config.storeUrl', DATASET_LIMITS.storeUrl))
      .refine((value) => /^https?:\/\//i.test(value), datasetMessages.storeUrlScheme)
      .refine(looksLikeStoreUrl, datasetMessages.storeUrl)
      .optional(),
    storeId: stringOf('config.storeId').transform(cut(DATASET_LIMITS.storeId)).optional(),
    storeDomain: storeDomain.optional(),
    storeName: stringOf('config.storeName').transform(cut(DATASET_LIMITS.storeName)).optional(),
    currency: currency.optional(),
    targetGender: targetGender.optional(),
  },
  { error: datasetMessages.notObject('config') },
);

export type ConfigPatch = z.output<typeof updateConfig>;

/** `POST /v1/datasets` (document 3 §3). `countryName` and unknown fields are ignored, not refused. */
export const createDatasetBody = z.object({
  name: stringOf('name').trim().min(1, datasetMessages.nameLength).max(DATASET_LIMITS.name, datasetMessages.nameLength),
  description: stringOf('description').max(DATASET_LIMITS.description, datasetMessages.tooLong('description', DATASET_LIMITS.description)).optional(),
  metadata: objectOf('metadata').optional(),
  config: createConfig.optional(),
  autoPublish: z.boolean({ error: datasetMessages.notBoolean('autoPublish') }).optional(),
});

/** `PATCH /v1/datasets/{datasetId}`: name and description cut rather than refused. */
export const updateDatasetBody = z.object({
  name: stringOf('name').trim().min(1, datasetMessages.nameEmpty).transform(cut(DATASET_LIMITS.name)).optional(),
  description: stringOf('description').transform(cut(DATASET_LIMITS.description)).optional(),
  metadata: objectOf('metadata').optional(),
  config: updateConfig.optional(),
  autoPublish: z.boolean({ error: datasetMessages.notBoolean('autoPublish') }).optional(),
});

export function newDatasetContent(body: z.output<typeof createDatasetBody>): DatasetContent {
  const { targetGender, ...config } = body.config ?? {};
  return {
    name: body.name,
    description: body.description ?? '',
    ...(body.metadata ? { metadata: body.metadata } : {}),
    config: { ...config, targetGender: targetGender ?? null },
    autoPublish: body.autoPublish ?? true,
  };
}

/** The changes an update asks for: metadata replaced wholesale, config merged field by field. */
export function datasetChanges(body: z.output<typeof updateDatasetBody>, current: DatasetConfig): Partial<DatasetContent> {
  const { config, ...rest } = body;
  const changes: Partial<DatasetContent> = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  if (config) changes.config = { ...current, ...Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)) };
  return changes;
}
