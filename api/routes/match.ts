// POST /v2/agent/match (experimental): the shopper's photo of a dressed person in, the pieces of
// the outfit out, each with the catalogue's best matches and alternates, priced in the shopper's
// market. The photo is a data URI or a web address (fetched through the guarded outbound client);
// it is decoded within the process's per-core pool of sharp slots, shared with image delivery and
// looks, behind the route's own short line (a 503 with Retry-After when either is full), read
// offline for the pieces, and with STYLIST_VISION_MODEL set the model names them instead (the
// offline reading answers when the model fails or is slow). The demo key is refused.
import { clientGone } from '../client-gone.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { COLOR_FAMILIES, PATTERNS, SLOTS } from '../../domain/catalogue/vocabulary.js';
import { linkItem, type ImageLinks } from '../../domain/item/image-links.js';
import { MATCH_BODY_LIMIT, MATCH_LIMITS, matchMessages, matchRequestSchema, type GarmentPiece } from '../../domain/match/request.js';
import { Abandoned, addressOwner, FairSlots, ImagesBusy, WaitingLineFull } from '../../infra/images/fair-slots.js';
import { garmentRegions, readPhoto } from '../../infra/images/garment-regions.js';
import { matchPhotoBytes } from '../../infra/images/match-photo.js';
import type { Outbound } from '../../infra/http/outbound.js';
import type { VisionMatcher } from '../../infra/models/openai-vision-match.js';
import { matchPieces } from '../../projections/queries/match.js';
import type { SearchDeps } from '../../projections/queries/search/index.js';
import { budgetedBody, declaredBody, type BodyBudget } from '../body-budget.js';
import { HttpError } from '../plugins/errors.js';
import { zodRoutes } from '../plugins/validation.js';
import { callerOf, type RouteContext } from './context.js';
import { clientGroup } from './images.js';
import { itemSchema } from './item-schema.js';
import { pricedProduct } from './search.js';

export interface MatchReader {
  /**
   * The route's own line (matchSlots): photos being read at once and waiting, shared fairly among
   * client addresses. Shorter than the pool's, so a burst of photos is told to come back in a
   * second rather than wait behind hundreds of image variants.
   */
  slots: FairSlots;
  /** Where the decode and the reading run: the process's pool of sharp slots (app/api.ts), owner `address:<ip>`. */
  sharpSlots: FairSlots;
  /** Null: the photo is read offline only. */
  vision: VisionMatcher | null;
  /** Logged, never answered: the model failed and the offline reading answered instead. */
  onVisionError?: (error: unknown) => void;
}

export interface MatchContext extends RouteContext {
  search: Omit<SearchDeps, 'db'>;
  outbound: Outbound;
  match: MatchReader;
  uploadBudget: BodyBudget;
}

/** The route's line: one place per core (MATCH_SLOTS), a short line behind them (MATCH_MAX_QUEUED); the 503 asks to come back in a second. */
export function matchSlots(slots: number, maxWaiting: number): FairSlots {
  return new FairSlots({ slots, perOwner: Math.max(1, Math.ceil(slots / 2)), heavySlots: slots, maxWaiting, maxWaitingPerOwner: Math.max(1, Math.ceil(maxWaiting / 2)) });
}

/** Data URIs up to this are read without the upload budget. */
const BUDGETED_BODY = 256 * 1024;

const result = z.object({ itemId: z.uuid(), datasetId: z.uuid(), score: z.number(), metadata: itemSchema.shape.metadata, product: pricedProduct });
const fraction = z.number().min(0).max(1);
const response = z.object({
  pieces: z.array(
    z.object({
      slot: z.enum(SLOTS),
      colorFamily: z.enum(COLOR_FAMILIES),
      region: z.object({ x: fraction, y: fraction, width: fraction, height: fraction }).describe('Where the piece is in the photo, as fractions of its width and height.'),
      pattern: z.enum(PATTERNS).optional(),
      products: z.array(result).describe(`The best matches, at most ${MATCH_LIMITS.products}, best first.`),
      alternates: z.array(result).describe(`The next ${MATCH_LIMITS.alternates} matches.`),
    }),
  ),
  market: z.object({ country: z.string().nullable(), currency: z.string(), exact: z.boolean() }),
});

async function readPieces(context: MatchContext, request: FastifyRequest, bytes: Buffer, gone: AbortSignal): Promise<GarmentPiece[]> {
  const client = clientGroup(request.ip);
  let read;
  try {
    // A place in the route's line, then a turn in the shared pool (the same address as its image variants).
    read = await context.match.slots.run(
      client,
      false,
      () =>
        context.match.sharpSlots.run(
          addressOwner(client),
          false,
          async () => {
            const photo = await readPhoto(bytes, MATCH_LIMITS.imagePixels);
            return photo.ok ? { ok: true as const, jpeg: photo.jpeg, pieces: garmentRegions(photo.raster) } : photo;
          },
          gone,
        ),
      gone,
    );
  } catch (error) {
    if (error instanceof ImagesBusy || error instanceof WaitingLineFull || error instanceof Abandoned) throw new HttpError(503, matchMessages.busy, { retryAfter: 1 });
    throw error;
  }
  if (!read.ok) throw new HttpError(422, read.problem === 'too-many-pixels' ? matchMessages.imagePixels : matchMessages.imageUnreadable);
  if (!context.match.vision) return read.pieces;
  // The model waits outside the slots: a core is not held while a server thinks.
  try {
    return await context.match.vision.pieces(read.jpeg, gone);
  } catch (error) {
    if (gone.aborted) throw error;
    context.match.onVisionError?.(error);
    return read.pieces;
  }
}

export const matchRoutes = (context: MatchContext & ImageLinks) => (app: FastifyInstance) => {
  zodRoutes(app).post(
    '/v2/agent/match',
    {
      bodyLimit: MATCH_BODY_LIMIT,
      preParsing: budgetedBody(context.uploadBudget, { bytes: (request) => declaredBody(request, MATCH_BODY_LIMIT, BUDGETED_BODY) }),
      config: { auth: 'public', resource: 'api.v2.agent.match', demo: false },
      schema: {
        summary: 'Shop the look in a photo (experimental)',
        description:
          'A photo of a dressed person (`image`: a data URI, or an https URL the service fetches) in; the pieces of the outfit out, top to bottom, each with its slot, ' +
          'colour family, region of the photo (fractions 0–1), pattern when seen, and the catalogue products that match it best (`products`, then `alternates`), ' +
          'found by the search of POST /v1/search in the same scope (`datasetIds`, else `store`, else every active dataset) and priced in the market of `country`. ' +
          'Only products the shopper can buy there are shown. 422 for a photo that is not an image, too big, or an address that is refused; ' +
          '503 with Retry-After when too many photos are being read. Not available to the demo key.',
        body: matchRequestSchema,
        response: { 200: response },
      },
    },
    async (request, reply) => {
      const { image, datasetIds, store, country } = request.body;
      const gone = clientGone(reply);
      const bytes = await matchPhotoBytes(image, context.outbound, gone);
      if (!bytes.ok) throw new HttpError(422, bytes.message, { details: [{ path: 'image', message: bytes.message }] });
      let pieces: GarmentPiece[];
      try {
        pieces = await readPieces(context, request, bytes.bytes, gone);
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 503) reply.header('retry-after', '1');
        throw error;
      }
      const found = await matchPieces(
        { db: context.db, ...context.search },
        { organizationId: callerOf(request).organizationId, ...(datasetIds ? { datasetIds } : {}), store: store ?? null, country: country ?? null },
        pieces,
      );
      return {
        market: found.market,
        pieces: found.pieces.map((piece) => ({
          ...piece,
          products: piece.products.map((p) => linkItem(p, context.baseUrl)),
          alternates: piece.alternates.map((p) => linkItem(p, context.baseUrl)),
        })),
      };
    },
  );
};
