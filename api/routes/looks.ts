// POST /v2/agent/looks (issue 24): a picture of a look made of the store's items. Public key; the
// demo key draws looks but no try-on. The items are the caller's organization's active items of active datasets
// (unknown, archived, another organization's or not for sale in the shopper's market: one 422
// naming them, nothing drawn). The picture is the offline composition of the items' photos, or,
// with an image model configured, the model's picture with the composition as reference (the
// composition when the model fails or is slow). Try-on (`userPhotoUrl`) needs the store's
// styling.tryOn and an image model. Looks in flight (model calls included) are bounded by the
// looks' own places, and their sharp work by the process's pool of sharp slots shared with image
// delivery and match (503 + Retry-After when either is full).
import { clientGone } from '../client-gone.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { canvasSize, lookMessages, lookRequestSchema, parseAspectRatio, type LookRequest } from '../../domain/looks/request.js';
import { organizationDatasets } from '../../projections/queries/datasets.js';
import { pricedProducts, type PricedItem } from '../../projections/queries/products.js';
import type { Outbound } from '../../infra/http/outbound.js';
import { Abandoned, ImagesBusy, WaitingLineFull, type LookItem, type LookRenderer } from '../../infra/images/look-renderer.js';
import { fetchUserPhoto, UserPhotoProblem } from '../../infra/images/user-photo.js';
import { HttpError } from '../plugins/errors.js';
import { AUTH_ERRORS } from '../plugins/authentication.js';
import { zodRoutes } from '../plugins/validation.js';
import { callerOf, type RouteContext } from './context.js';

export interface LooksContext extends RouteContext {
  looks: LookRenderer;
  /** The try-on photo is fetched through it (OUTBOUND_ALLOW_PRIVATE decides about private addresses). */
  outbound: Outbound;
}

const RETRY_AFTER_SECONDS = 2;

const response = z.object({
  visualization: z.object({
    imageData: z.string().describe('`data:image/jpeg;base64,…`'),
    contentType: z.literal('image/jpeg'),
    width: z.number().int(),
    height: z.number().int(),
    aspectRatio: z.string(),
    source: z.enum(['offline', 'model']).describe('`model`: drawn by the image model; `offline`: the composition of the items\' photos.'),
    fallbackReason: z.string().nullable().describe('Why an image model\'s picture is not the one answered (it failed or ran past its timeout); null otherwise.'),
    tryOn: z.boolean(),
    label: z.string().nullable(),
    items: z.array(
      z.object({
        itemId: z.uuid(),
        datasetId: z.uuid(),
        name: z.string(),
        slot: z.string(),
        price: z.number(),
        currency: z.string(),
        photo: z.boolean().describe('false: drawn as a swatch of its colour (no usable stored photo).'),
        region: z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() }).describe('Where it sits in the offline composition.'),
      }),
    ),
  }),
});

const money = (price: number, currency: string): string => {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(price);
  } catch {
    return `${price.toFixed(2)} ${currency}`;
  }
};

const lookItem = (item: PricedItem, showPrices: boolean): LookItem => {
  const photo = item.product.assets.images.find((image) => image.uploaded?.key);
  const rgb = item.metadata.color_rgb;
  return {
    itemId: item.itemId,
    name: item.product.name,
    slot: item.metadata.slot,
    colour: Array.isArray(rgb) && rgb.length === 3 ? rgb : [200, 200, 200],
    colourName: item.metadata.colors?.[0] ?? item.metadata.color_family ?? '',
    photoKey: photo?.uploaded.key ?? null,
    caption: showPrices ? `${item.product.name} · ${money(item.product.price, item.product.currency)}` : null,
  };
};

export const lookRoutes = (context: LooksContext) => (app: FastifyInstance) => {
  zodRoutes(app).post(
    '/v2/agent/looks',
    {
      // The demo key draws looks (the demo storefront shows them), but never a try-on: no shopper's photo on a shared key.
      config: { auth: 'public', resource: 'api.v2.agent.looks' },
      schema: {
        summary: 'Draw a look',
        description:
          'A picture of the look made of `itemIds` (active items of the organization\'s active datasets, for sale in the market of `country`): the offline composition of the items\' photos ' +
          '(outerwear and tops above bottoms above footwear, accessories beside), or with an image model configured its picture, the composition standing in when it fails or is slow. ' +
          '`userPhotoUrl` (try-on) needs an image model and the store\'s styling.tryOn. 422: a field out of bounds, items unknown or unavailable, try-on without an image model, a photo that cannot be used; ' +
          '403: try-on with the demo key, or turned off; 503 with Retry-After: too many looks being drawn.',
        body: lookRequestSchema,
        response: { 200: response },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body: LookRequest = request.body;
      if (body.userPhotoUrl && caller.demo) throw new HttpError(403, AUTH_ERRORS.demoUnsupported);
      const itemIds = [...new Set(body.itemIds)];
      const active = (await organizationDatasets(context.db, caller.organizationId)).filter((dataset) => dataset.status === 'active');
      const priced = await pricedProducts(context.db, { organizationId: caller.organizationId, datasetIds: active.map((d) => d.datasetId) }, itemIds, body.country ?? null);
      const missing = itemIds.filter((id) => !priced.get(id)?.product.available);
      if (missing.length) throw new HttpError(422, lookMessages.unknownItems(missing), { itemIds: missing });
      const items = itemIds.map((id) => priced.get(id)!);
      const datasets = new Map(active.map((dataset) => [dataset.datasetId, dataset]));
      const ofItems = [...new Set(items.map((item) => item.datasetId))].map((id) => datasets.get(id)!);

      let userPhoto: Buffer | null = null;
      if (body.userPhotoUrl) {
        if (ofItems.some((dataset) => dataset.styling?.tryOn === false)) throw new HttpError(403, lookMessages.tryOnOff);
        if (!context.looks.hasModel) throw new HttpError(422, lookMessages.tryOnNeedsModel);
        try {
          userPhoto = await fetchUserPhoto(context.outbound, body.userPhotoUrl);
        } catch (error) {
          if (error instanceof UserPhotoProblem) throw new HttpError(422, lookMessages.userPhoto(error.message));
          throw error;
        }
      }

      const ratio = parseAspectRatio(body.preferences.aspectRatio)!;
      const { width, height } = canvasSize(ratio);
      const label = body.label || null;
      const gone = clientGone(reply, new Abandoned());
      let drawn;
      try {
        drawn = await context.looks.draw(
          caller.organizationId,
          {
            label,
            width,
            height,
            items: items.map((item) => lookItem(item, body.preferences.showPrices)),
            userPhoto,
            customInstructions: body.customInstructions || null,
            storePicture: ofItems.map((dataset) => dataset.styling?.picture?.trim()).find(Boolean) ?? null,
          },
          gone,
        );
      } catch (error) {
        if (error instanceof ImagesBusy || error instanceof WaitingLineFull || error instanceof Abandoned) {
          reply.header('retry-after', String(RETRY_AFTER_SECONDS));
          throw new HttpError(503, lookMessages.busy);
        }
        throw error;
      }
      return {
        visualization: {
          imageData: `data:${drawn.contentType};base64,${drawn.bytes.toString('base64')}`,
          contentType: drawn.contentType,
          width,
          height,
          aspectRatio: `${ratio.width}:${ratio.height}`,
          source: drawn.source,
          fallbackReason: drawn.fallbackReason,
          tryOn: userPhoto !== null && drawn.source === 'model',
          label,
          items: items.map((item, i) => ({
            itemId: item.itemId,
            datasetId: item.datasetId,
            name: item.product.name,
            slot: item.metadata.slot,
            price: item.product.price,
            currency: item.product.currency,
            photo: drawn.photos[i]!,
            region: drawn.regions[i]!,
          })),
        },
      };
    },
  );
};
