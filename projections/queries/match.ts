// The products of a catalogue that match each piece of an outfit (POST /v2/agent/match): for each
// piece, the shopper search (searchCatalogue: the same scope rules, retrieval and market pricing
// as POST /v1/search) in the piece's slot and colour families, its words being the model's
// description or the colour's name; then the found products ordered by how close their colour and
// pattern are (domain/match/rank.ts). Products the shopper cannot buy in their market are never shown.
import { rankCandidates, familiesToSearch } from '../../domain/match/rank.js';
import { MATCH_LIMITS, type GarmentPiece } from '../../domain/match/request.js';
import { searchCatalogue, type SearchDeps, type SearchResponse, type SearchResult } from './search/index.js';

export interface MatchScope {
  organizationId: string;
  datasetIds?: readonly string[];
  store?: { origin?: string | null; shop?: string | null } | null;
  country?: string | null;
}

export interface MatchedPiece extends Omit<GarmentPiece, 'rgb' | 'description' | 'pattern'> {
  pattern?: NonNullable<GarmentPiece['pattern']>;
  products: SearchResult[];
  alternates: SearchResult[];
}

export interface MatchResponse {
  pieces: MatchedPiece[];
  market: SearchResponse['market'];
}

/** Candidates each search brings: enough for the colour ranking to choose from. */
const PER_SEARCH = 30;

export async function matchPieces(deps: SearchDeps, scope: MatchScope, pieces: readonly GarmentPiece[]): Promise<MatchResponse> {
  const base = {
    organizationId: scope.organizationId,
    ...(scope.datasetIds?.length ? { datasetIds: scope.datasetIds } : {}),
    store: scope.store ?? null,
    country: scope.country ?? null,
  };
  const markets: Array<SearchResponse['market']> = [];
  const matched = await Promise.all(
    pieces.map(async (piece) => {
      const families = familiesToSearch(piece);
      const searches = await Promise.all(
        families.map((family, i) =>
          searchCatalogue(deps, {
            ...base,
            // The model's words lead its own family's search; the others are by colour name alone.
            query: i === 0 && piece.description ? piece.description : family,
            limit: PER_SEARCH,
            filters: { slot: piece.slot, color_family: family, inStock: true },
          }),
        ),
      );
      for (const found of searches) markets.push(found.market);
      const ranked = rankCandidates(piece, searches.flatMap((found) => found.results));
      const shown: MatchedPiece = {
        slot: piece.slot,
        colorFamily: piece.colorFamily,
        region: piece.region,
        ...(piece.pattern ? { pattern: piece.pattern } : {}),
        products: ranked.slice(0, MATCH_LIMITS.products),
        alternates: ranked.slice(MATCH_LIMITS.products, MATCH_LIMITS.products + MATCH_LIMITS.alternates),
      };
      return shown;
    }),
  );
  // Every search had the same scope and country: the market of one that priced something says it best.
  const market = markets.find((m) => m.exact) ?? markets[0] ?? (await searchCatalogue(deps, { ...base, query: 'clothing', limit: 1 })).market;
  return { pieces: matched, market };
}
