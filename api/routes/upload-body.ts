// The item upload's body (document 3 §3 Items), read as it arrives, with the parser that reads a
// store's feed (infra/http/json-lists.ts): each entry of `items` or `products` is checked and made
// into its listing as soon as it completes, then dropped. A request holds its listings and the
// entry being read, never the body's text or its parsed tree.
//
// The answers are those of every other JSON route (api/plugins/json-body.ts) and of fastify's own
// body reading, in the same order: 413 and a length that does not match Content-Length (or the
// stream's own error, a 408) once the body ended; then invalid JSON; then the problem bodyProblem
// would find first in the parsed body (its walk checks the root's keys, then each value, last
// first); then a body that is not an object. The route's schema then checks a body of the same
// shape: each list as what its entries became, any other value of a list's key as null.
import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';
import { keptEntry, type ParsedEntry, type RefusedEntry } from '../../commands/items.js';
import { valueProblem, wellFormedText, type ValueProblem } from '../../domain/text.js';
import { InvalidJson, JsonLists } from '../../infra/http/json-lists.js';
import { HttpError } from '../plugins/errors.js';
import { canonicalJson, IDEMPOTENCY_KEY_HEADER, presetRequestHash, requestHashPrefix } from '../plugins/idempotency.js';
import { BAD_TEXT, INVALID_JSON, MAX_BODY_DEPTH, TOO_DEEP } from '../plugins/json-body.js';

export type UploadShape = 'items' | 'products';
const SHAPES: readonly UploadShape[] = ['items', 'products'];

export interface UploadBodyOptions {
  /** The most bytes a body may have (the route's bodyLimit). */
  limit: number;
  /** The most entries a list may have: past it the answer is 422 whatever the entries hold, so none is kept. */
  maxEntries: number;
  /** The dataset's store address, for the product pages of `products` entries ('' when there is none). */
  storeUrl(request: FastifyRequest): Promise<string>;
}

/** The body the route's schema checks: `items` and `products` as they were sent, or null where not an array. */
export interface UploadBody {
  items?: Array<ParsedEntry | RefusedEntry | null> | null;
  products?: Array<ParsedEntry | RefusedEntry | null> | null;
}

type Problem = ValueProblem['kind'];

/** One list as read so far (the last one, when a key came twice). */
interface ListRead {
  /** What each entry became; null once the list is longer than an upload takes. */
  entries: Array<ParsedEntry | RefusedEntry> | null;
  /** The problem of the last entry with one: bodyProblem's walk meets the last entry first. */
  problem: Problem | null;
  /** The request's hash so far, for a request with an Idempotency-Key (requestHash of the body this list would make). */
  hash: Hash | null;
}

/** What a body that is not a JSON object stands as, for the JSON-body check to refuse (`Request body must be a JSON object.`). */
const NOT_AN_OBJECT: unknown[] = [];

/** A content type parser for the upload route: resolves to the body for its schema, or rejects with the answer. */
export function uploadBodyParser(options: UploadBodyOptions) {
  return async (request: FastifyRequest, payload: Readable): Promise<UploadBody | unknown[]> => {
    const contentLength = Number(request.headers['content-length']);
    if (contentLength > options.limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    const storeUrl = await options.storeUrl(request);
    const body = new BodyReading(request, options.maxEntries, storeUrl);
    await readStream(payload, options.limit, contentLength, (text) => body.write(text));
    return body.end();
  };
}

/** The stream read as fastify reads a body (its limit, the length it declared, its errors), each piece handed on as text. */
function readStream(payload: Readable, limit: number, contentLength: number, write: (text: string) => void): Promise<void> {
  // Not decoded whole: a byte-order mark stays, as Buffer#toString keeps it (and JSON.parse refuses it).
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let received = 0;
  return new Promise((resolve, reject) => {
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    const fail = (error: unknown) => {
      stop();
      reject(error);
    };
    const encodedLength = () => (payload as Readable & { receivedEncodedLength?: number }).receivedEncodedLength ?? 0;
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limit || encodedLength() > limit) return fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      try {
        write(decoder.decode(bytes, { stream: true }));
      } catch (error) {
        fail(error);
      }
    }
    function onEnd(error?: Error & { statusCode?: number }) {
      stop();
      if (error != null) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        return reject(error);
      }
      if (!Number.isNaN(contentLength) && (encodedLength() || received) !== contentLength) return reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      try {
        write(decoder.decode());
        resolve();
      } catch (failure) {
        reject(failure);
      }
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}

/** One body being read: its lists kept entry by entry, everything else checked and dropped. */
class BodyReading {
  readonly #parser: JsonLists;
  readonly #lists = new Map<UploadShape, ListRead>();
  /** The problem of each other value of the root object, by key (a null-prototype object keeps keys as JSON.parse does). */
  readonly #others: Record<string, Problem | null> = Object.create(null);
  /** A root array's: the problem of its last element with one. A root scalar's: its own. */
  #rootProblem: Problem | null = null;
  /** requestHashPrefix, for a request with an Idempotency-Key. */
  readonly #hashPrefix: string | null;

  private readonly request: FastifyRequest;
  private readonly maxEntries: number;
  private readonly storeUrl: string;
  constructor(
    request: FastifyRequest,
    maxEntries: number,
    storeUrl: string,
  ) {
    this.request = request;
    this.maxEntries = maxEntries;
    this.storeUrl = storeUrl;
    this.#hashPrefix = request.headers[IDEMPOTENCY_KEY_HEADER] === undefined ? null : requestHashPrefix(request);
    this.#parser = new JsonLists(
      SHAPES,
      {
        startList: (key) => this.#startList(key as UploadShape),
        entry: (key, value, index) => this.#entry(key as UploadShape, value, index),
        other: (value, key) => this.#other(value, key),
      },
      MAX_BODY_DEPTH,
    );
  }

  write(text: string): void {
    try {
      this.#parser.write(text);
    } catch (error) {
      // Remembered by the parser and answered once the body ended (a bigger body is a 413 first).
      if (!(error instanceof InvalidJson)) throw error;
    }
  }

  end(): UploadBody | unknown[] {
    const parser = this.#parser;
    if (parser.blank) return NOT_AN_OBJECT;
    try {
      parser.end();
    } catch (error) {
      throw error instanceof InvalidJson ? new HttpError(400, INVALID_JSON) : error;
    }
    const problem = this.#firstProblem();
    if (problem) throw new HttpError(400, problem === 'depth' ? TOO_DEEP : BAD_TEXT);
    if (parser.root !== 'object') return NOT_AN_OBJECT;
    const keys = new Set(parser.keys);
    const body: UploadBody = {};
    for (const shape of SHAPES) {
      if (!keys.has(shape)) continue;
      const list = this.#lists.get(shape);
      body[shape] = parser.isList(shape) && list ? (list.entries ?? new Array<null>(this.maxEntries + 1).fill(null)) : null;
    }
    // Only a body with one list reaches the handler, and then the request's hash is that of `{"<shape>":[…]}`.
    const only = SHAPES.filter((shape) => body[shape]);
    const hash = only.length === 1 ? this.#lists.get(only[0]!)?.hash : null;
    if (hash) presetRequestHash(this.request, hash.update(']}]').digest('hex'));
    return body;
  }

  #startList(key: UploadShape): void {
    const hash = this.#hashPrefix === null ? null : createHash('sha256').update(`${this.#hashPrefix}{${JSON.stringify(key)}:[`);
    this.#lists.set(key, { entries: [], problem: null, hash });
  }

  #entry(key: UploadShape, value: unknown, index: number): void {
    const list = this.#lists.get(key)!;
    // An entry sits at level 3 of the body.
    const problem = valueProblem(value, MAX_BODY_DEPTH - 2);
    if (problem) list.problem = problem.kind;
    if (index >= this.maxEntries) {
      list.entries = null;
      list.hash = null;
    }
    // A body with a problem is refused whole, and one too long is refused as too long: nothing more to keep.
    if (list.problem || !list.entries) return;
    list.entries.push(keptEntry(key, value, this.storeUrl));
    list.hash?.update(`${index > 0 ? ',' : ''}${canonicalJson(value)}`);
  }

  #other(value: unknown, key: string | number | null): void {
    if (key === null) {
      this.#rootProblem = valueProblem(value, MAX_BODY_DEPTH)?.kind ?? null;
      return;
    }
    // A value of the root sits at level 2.
    const problem = valueProblem(value, MAX_BODY_DEPTH - 1)?.kind ?? null;
    if (typeof key === 'number') this.#rootProblem = problem ?? this.#rootProblem;
    else this.#others[key] = problem;
  }

  /** What bodyProblem would say of the parsed body: the root's keys first, then its values from the last. */
  #firstProblem(): Problem | null {
    const parser = this.#parser;
    if (parser.root !== 'object') return this.#rootProblem;
    const keys = parser.keys;
    if (keys.some((key) => !wellFormedText(key))) return 'text';
    for (const key of keys.reverse()) {
      const list = (SHAPES as readonly string[]).includes(key) && parser.isList(key) ? this.#lists.get(key as UploadShape) : undefined;
      const problem = list ? list.problem : (this.#others[key] ?? null);
      if (problem) return problem;
    }
    return null;
  }
}
