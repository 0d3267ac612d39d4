// `store` of a shopper request (search, agent chat): the storefront page's origin and the shop's
// permanent domain, either may be null; it narrows the scope to that store's datasets. Pure.
import { z } from 'zod';

export const STORE_MESSAGE = 'store must be an object with origin and shop (strings or null).';

export const storeSchema = z.object(
  {
    origin: z.string({ error: STORE_MESSAGE }).max(2048, STORE_MESSAGE).nullish(),
    shop: z.string({ error: STORE_MESSAGE }).max(255, STORE_MESSAGE).nullish(),
  },
  { error: STORE_MESSAGE },
);
