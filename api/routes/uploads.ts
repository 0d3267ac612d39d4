// POST /v1/file/upload (private key) and POST /v1/file/upload/session (private key, or the signed-in
// session cookie), document 2 "Uploads and images". Checks run in the spec's order: authentication
// (the plugin, onRequest), the per-IP limit of the session route, the session's organization, the
// staff-only `folder`, the Content-Type, then the body. The body is a multipart stream read part by
// part: a file is held whole only up to 10 MB, at most three files of a request at once (two being
// checked and stored while the next arrives), and only the first 10 file parts are read. A file is
// stored (bytes first, then its `FileUploaded` event) only once every check on its bytes passed; a
// failed append deletes the bytes again, so a rejected file leaves nothing behind.
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { storeUpload, UploadNotStored } from '../../commands/files.js';
import {
  isAllowedContentType,
  MAX_FILE_BYTES,
  MAX_FILES,
  MIN_FILE_BYTES,
  objectKeyFor,
  sanitiseFilename,
  UPLOAD_MESSAGES,
  uploadStatus,
  type FileFailure,
  type ImageContentType,
  type Uploader,
} from '../../domain/file/index.js';
import type { CommandMeta } from '../../domain/metadata.js';
import { inspectImage } from '../../infra/images/inspect.js';
import type { ObjectStore } from '../../infra/objects/port.js';
import type { BodyBudget, BodyReading } from '../body-budget.js';
import { HttpError } from '../plugins/errors.js';
import type { MinuteLimit } from '../plugins/metering.js';
import { zodRoutes } from '../plugins/validation.js';
import type { RouteContext } from './context.js';

export interface UploadContext extends RouteContext {
  objects: ObjectStore;
  uploadBudget: BodyBudget;
}

/** Document 1: 30 requests a minute per client IP on the session route, counted once authenticated. */
export const SESSION_UPLOAD_BUCKET = 'api.v1.file.upload.session';
export const SESSION_UPLOADS_PER_MINUTE = 30;

/**
 * Document 1 "Other limits": the session route's per-IP window, counted by the metering plugin
 * after authentication and before the session's organization is looked at or the body read;
 * its 429 has no Retry-After header, the body carries `retryAfter`.
 */
const perAddress: MinuteLimit = {
  bucket: SESSION_UPLOAD_BUCKET,
  perMinute: SESSION_UPLOADS_PER_MINUTE,
  subject: (request) => `ip:${request.ip}`,
  message: UPLOAD_MESSAGES.rateLimited,
  retryAfterHeader: false,
};

/** Parser limits: what a multipart body may hold besides its files, so no part of it grows without bound. */
export const MULTIPART_LIMITS = {
  fileSize: MAX_FILE_BYTES,
  files: MAX_FILES,
  /** Text fields are read and ignored; a few are normal (a form's hidden inputs). */
  fields: 20,
  fieldSize: 16 * 1024,
  fieldNameSize: 200,
  /** Parts of any kind: past this the parser stops handing out parts (10,000 tiny parts cost nothing). */
  parts: 100,
  headerPairs: 20,
  /** One part's headers, in bytes. */
  headerSize: 8 * 1024,
};

/** How long an answer waits for the rest of a body the parser is throwing away before closing the connection instead. */
const DRAIN_WAIT_MS = 2_000;

const uploadedFile = z.object({
  fileId: z.uuid(),
  key: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
type UploadedFile = z.infer<typeof uploadedFile>;

const uploadResult = z.object({
  files: z.array(uploadedFile),
  failures: z.array(z.object({ filename: z.string(), error: z.string() })),
  summary: z.object({ total: z.number().int(), succeeded: z.number().int(), failed: z.number().int() }),
});

interface Owner {
  organizationId: string;
  uploadedBy: Uploader;
  meta: { command: CommandMeta; log: FastifyBaseLogger };
}

const NOT_MULTIPART = Symbol('not multipart');
const EXPIRED = Symbol('expired');

/** Files of one request checked and stored at once (sharp decodes on the thread pool, so two use both cores). */
const FILES_AT_ONCE = 2;

interface Received {
  filename: string;
  declared: ImageContentType;
  bytes: Buffer;
}

export const uploadRoutes = (context: UploadContext) => async (app: FastifyInstance) => {
  // The process's budget, for whoever watches the process (tests wait on what it holds).
  if (!app.hasDecorator('uploadBudget')) app.decorate('uploadBudget', context.uploadBudget);
  await app.register(async (scope) => {
    // Only these routes read multipart: their own parsers. Anything else is left unread for the
    // handler to refuse in its turn (the JSON parser would refuse it first, with the wrong answer).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, NOT_MULTIPART));
    await scope.register(fastifyMultipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: false });
    // An answer given before the body was read (refused by authentication, the limit, the
    // Content-Type, or a parse error) closes the connection rather than reading up to 100 MB of
    // upload only to throw it away.
    scope.addHook('onSend', async (request, reply, payload) => {
      if (!request.raw.readableEnded) reply.header('connection', 'close');
      return payload;
    });
    const routes = zodRoutes(scope);

    const description = [
      'Body: `multipart/form-data` with 1 to 10 image files (`image/jpeg`, `image/png`, `image/webp`, `image/avif`), 1 KB to 10 MB each, under any field name; only the first 10 file parts are read.',
      "Each file's bytes are checked against its declared type, decoded whole, and refused past 50 megapixels.",
      '200: every file stored; 207: some; otherwise 400, 413, 415, 422 or 500 with `error` `No files were stored.` and the same body.',
      '400 `Failed to parse upload`: a body without a boundary, garbled, or cut off; whole files before the break were stored, and are listed with it.',
      '408 when the body arrives too slowly (under the minimum rate over a window) or not by its deadline: `error` says which, with the files stored before it was cut off, and the connection closes.',
      'The query parameter `folder` is for staff only (403).',
    ].join(' ');
    const response = { 200: uploadResult, 207: uploadResult };

    routes.post(
      '/v1/file/upload',
      {
        // Metered like every private-key route (document 2 leaves it open): resource api.v1.file.upload.
        config: { auth: 'private', resource: 'api.v1.file.upload', body: 'none', idempotent: false },
        schema: { summary: 'Upload image files', description, tags: ['uploads'], response },
      },
      async (request, reply) => upload(request, reply, ownerOf(request)),
    );

    routes.post(
      '/v1/file/upload/session',
      {
        config: { auth: 'private-or-session', body: 'none', minuteLimits: [perAddress] },
        schema: {
          summary: 'Upload image files (signed in)',
          description: `${description} Not metered against the plan: ${SESSION_UPLOADS_PER_MINUTE} requests a minute per client IP (429 with \`bucket\`, \`resource\`, \`used\`, \`limit\`, \`retryAfter\`, \`windowSeconds\`; no Retry-After header). With a session cookie (\`stylist_session\`), files belong to the account's first active organization.`,
          tags: ['uploads'],
          response,
        },
      },
      async (request, reply) => {
        const owner = ownerOf(request);
        return upload(request, reply, owner);
      },
    );
  });

  async function upload(request: FastifyRequest, reply: FastifyReply, owner: Owner) {
    if ((request.query as Record<string, unknown> | undefined)?.folder !== undefined) throw new HttpError(403, UPLOAD_MESSAGES.folder);
    checkContentType(request);

    // A few files are held at a time (FILES_AT_ONCE being checked, one arriving): their bytes count
    // against the budget shared with item uploads as they arrive, and the body is paced (408 when
    // it comes too slowly or too late).
    const declared = Number(request.headers['content-length']);
    const held = (FILES_AT_ONCE + 1) * MAX_FILE_BYTES;
    const reading = context.uploadBudget.open(owner.organizationId, Number.isFinite(declared) && declared >= 0 ? Math.min(declared, held) : held);
    reply.raw.once('close', () => reading.close());
    try {
      const { files, failures, total, drained, cut, malformed } = await readFiles(request, owner, reading);
      const body = {
        files,
        failures: failures.map(({ filename, error }) => ({ filename, error })),
        summary: { total, succeeded: files.length, failed: failures.length },
      };
      // The files stored before the cut stand, and are listed; the connection closes (onSend).
      if (cut) return reply.code(cut.statusCode).send({ error: cut.message, ...body });
      // The body itself is broken: the part it broke in is no file's failure. Whole files read
      // before the break were checked and stored, so they are listed; the connection closes.
      if (malformed) {
        reply.header('connection', 'close');
        if (total === 0) throw new HttpError(400, UPLOAD_MESSAGES.parseFailed);
        return reply.code(400).send({ error: UPLOAD_MESSAGES.parseFailed, ...body });
      }
      await finishBody(request, reply, drained);
      if (total === 0) throw new HttpError(422, UPLOAD_MESSAGES.noFiles);
      const status = uploadStatus(files.length, failures);
      if (status >= 400) return reply.code(status).send({ error: status === 500 ? 'Internal server error.' : UPLOAD_MESSAGES.noneStored, ...body });
      return reply.code(status).send(body);
    } finally {
      reading.close();
    }
  }

  /**
   * Reads the parts in order. A file's bytes are received whole before the next part is read; its
   * checks and storing run while the next file arrives, at most FILES_AT_ONCE of them at a time,
   * so a request holds at most that many files (plus the one arriving) in memory.
   */
  async function readFiles(request: FastifyRequest, owner: Owner, reading: BodyReading) {
    const outcomes: Array<Promise<UploadedFile | FileFailure>> = [];
    const working = new Set<Promise<unknown>>();
    // Whether the parser goes on reading (and dropping) the rest of the body by itself.
    let drained = true;
    // Truncated, garbled, or without a boundary: the whole request is refused, not one file.
    let malformed = false;
    const expired = new Promise<typeof EXPIRED>((resolve) => reading.expired.addEventListener('abort', () => resolve(EXPIRED), { once: true }));
    const parts = request.parts()[Symbol.asyncIterator]();
    try {
      for (;;) {
        // A client that stops sending between parts is cut off all the same.
        const next = await Promise.race([parts.next(), expired]);
        if (next === EXPIRED) break;
        if (next.done) break;
        const part = next.value;
        if (part.type !== 'file') continue;
        const received = await receiveFile(part, reading);
        const outcome =
          'error' in received
            ? Promise.resolve(received)
            : checkAndStore(received, owner)
                .catch((error: unknown) => unexpected(error, received, owner))
                .finally(() => reading.give(received.bytes.length));
        outcomes.push(outcome);
        const done: Promise<unknown> = outcome.then(() => working.delete(done));
        working.add(done);
        if (reading.expired.aborted) break;
        if (working.size >= FILES_AT_ONCE) await reading.serverWait(Promise.race(working));
      }
    } catch (error) {
      const { PartsLimitError, FilesLimitError, FieldsLimitError } = request.server.multipartErrors;
      // A limit ends the reading (the parser drops what follows); the files read so far stand.
      if (!(error instanceof PartsLimitError || error instanceof FilesLimitError || error instanceof FieldsLimitError)) {
        drained = false;
        // A deadline that cut the body off is answered as a cut (408), not as a malformed body.
        if (!reading.expired.aborted) {
          malformed = true;
          request.log.info({ err: error }, 'upload body could not be parsed');
        }
      }
    }
    const cut = reading.expired.aborted ? (reading.expired.reason as HttpError) : null;
    // Nothing more is read: what is left is the server's work on what arrived.
    reading.finished();
    const settled = await Promise.all(outcomes);
    const files = settled.filter((outcome): outcome is UploadedFile => !('error' in outcome));
    const failures = settled.filter((outcome): outcome is FileFailure => 'error' in outcome);
    return { files, failures, total: settled.length, drained, cut, malformed };
  }

  /** One file part's bytes, or why it is refused before its bytes are looked at. */
  async function receiveFile(part: MultipartFile, reading: BodyReading): Promise<Received | FileFailure> {
    const filename = sanitiseFilename(part.filename);
    const declared = mediaType(part.mimetype);
    const fail = (kind: FileFailure['kind'], error: string): FileFailure => {
      // Refused: its kept bytes go back to the budget at once.
      reading.give(received.taken);
      return { filename, error, kind };
    };

    const received = await receive(part, isAllowedContentType(declared), reading);
    if (received.interrupted) return fail('interrupted', UPLOAD_MESSAGES.interrupted);
    if (!isAllowedContentType(declared)) return fail('type', UPLOAD_MESSAGES.unsupported(part.mimetype || 'none'));
    if (received.tooLarge) return fail('too-large', UPLOAD_MESSAGES.tooLarge);
    if (received.bytes.length < MIN_FILE_BYTES) return fail('too-small', UPLOAD_MESSAGES.tooSmall);
    return { filename, declared, bytes: received.bytes };
  }

  async function checkAndStore({ filename, declared, bytes }: Received, owner: Owner): Promise<UploadedFile | FileFailure> {
    const fail = (kind: FileFailure['kind'], error: string): FileFailure => ({ filename, error, kind });

    const inspection = await inspectImage(bytes, declared);
    if (!inspection.ok) {
      return inspection.problem === 'mismatch' ? fail('type', UPLOAD_MESSAGES.mismatch(declared, inspection.found)) : fail('unreadable', inspection.message);
    }

    const fileId = randomUUID();
    const key = objectKeyFor(fileId, declared);
    const record = {
      fileId,
      key,
      filename,
      contentType: declared,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      width: inspection.width,
      height: inspection.height,
    };
    try {
      await storeUpload(context, { ...record, organizationId: owner.organizationId, uploadedBy: owner.uploadedBy }, bytes, owner.meta.command);
    } catch (error) {
      if (!(error instanceof UploadNotStored)) throw error;
      const message = error.stage === 'bytes' ? 'an upload could not be stored' : 'an upload was stored but its event could not be appended; its bytes are deleted';
      owner.meta.log.error({ err: error.cause, key }, message);
      return fail('storage', UPLOAD_MESSAGES.storage);
    }
    return record;
  }

  /** A check that failed in a way none foresaw is ours to answer for (a 500 when every file fails). */
  function unexpected(error: unknown, { filename }: Received, owner: Owner): FileFailure {
    owner.meta.log.error({ err: error, filename }, 'an upload failed unexpectedly');
    return { filename, error: UPLOAD_MESSAGES.storage, kind: 'storage' };
  }

};

/**
 * The bytes of one file part, up to the size limit; past it (or for a refused type) read and
 * dropped. Kept bytes are booked in the budget as they arrive (`taken`, for the caller to give
 * back); an expired body cuts the part off (interrupted); a malformed body throws the parser's error.
 */
async function receive(part: MultipartFile, keep: boolean, reading: BodyReading): Promise<{ bytes: Buffer; taken: number; tooLarge: boolean; interrupted: boolean }> {
  const chunks: Buffer[] = [];
  let taken = 0;
  const cut = () => part.file.destroy(reading.expired.reason as Error);
  if (reading.expired.aborted) cut();
  else reading.expired.addEventListener('abort', cut, { once: true });
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      if (!keep) {
        reading.passed(chunk.length);
        continue;
      }
      if (!reading.tryTake(chunk.length)) await reading.take(chunk.length);
      taken += chunk.length;
      chunks.push(chunk);
    }
  } catch (error) {
    // Cut off by the body's deadline: this file was interrupted. Any other break is the parser
    // finding the body truncated or malformed, which refuses the request, not this file.
    if (reading.expired.aborted) return { bytes: Buffer.alloc(0), taken, tooLarge: false, interrupted: true };
    reading.give(taken);
    throw error;
  } finally {
    reading.expired.removeEventListener('abort', cut);
  }
  // The parser stops handing over bytes at the limit and marks the stream truncated.
  if (part.file.truncated) return { bytes: Buffer.alloc(0), taken, tooLarge: true, interrupted: false };
  return { bytes: Buffer.concat(chunks), taken, tooLarge: false, interrupted: false };
}

/** `image/PNG; charset=x` → `image/png`. */
const mediaType = (value: string | undefined): string => (value ?? '').split(';')[0]!.trim().toLowerCase();

function checkContentType(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (mediaType(type) === 'multipart/form-data' && request.body !== NOT_MULTIPART) return;
  // No Content-Type and no body at all is an upload without files rather than a wrong type.
  const length = request.headers['content-length'];
  const empty = request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
  if (type === undefined && empty) throw new HttpError(422, UPLOAD_MESSAGES.noFiles);
  throw new HttpError(415, UPLOAD_MESSAGES.wrongContentType);
}

/**
 * After a limit the parser reads and drops the rest of the body on its own: the answer waits a
 * little for it so the connection can serve the next request. A body left unread (a parse error,
 * or one still arriving) closes the connection after the answer instead.
 */
async function finishBody(request: FastifyRequest, reply: FastifyReply, drained: boolean): Promise<void> {
  const raw = request.raw;
  if (raw.readableEnded) return;
  if (drained) {
    const timer = AbortSignal.timeout(DRAIN_WAIT_MS);
    await once(raw, 'end', { signal: timer }).catch(() => {});
    if (raw.readableEnded) return;
  }
  reply.header('connection', 'close');
}

/** Whose files these are: the key's organization, or the signed-in account's first active one. */
function ownerOf(request: FastifyRequest): Owner {
  if (request.caller) {
    const caller = request.caller;
    return { organizationId: caller.organizationId, uploadedBy: { kind: 'key', id: caller.keyId ?? 'unknown' }, meta: metaOf(request, caller.actor) };
  }
  const signedIn = request.signedIn;
  if (!signedIn) throw new Error(`${request.method} ${request.url}: neither a key nor a session was authenticated`);
  if (!signedIn.organizationId) throw new HttpError(403, UPLOAD_MESSAGES.noOrganization);
  const actor = { kind: 'account' as const, id: signedIn.accountId };
  return { organizationId: signedIn.organizationId, uploadedBy: actor, meta: metaOf(request, actor) };
}

function metaOf(request: FastifyRequest, actor: CommandMeta['actor']): Owner['meta'] {
  return { command: { now: new Date().toISOString(), actor, correlationId: request.correlationId }, log: request.log };
}
