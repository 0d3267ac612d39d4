// ObjectStore on an S3-compatible server (MinIO, AWS S3), chosen when S3_ENDPOINT is set.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Client, InvalidBucketNameError, S3Error, type BucketItem } from 'minio';
import { validateObjectKey, type ObjectInfo, type ObjectStore, type ObjectStream, type StoredObject } from './port.js';

export interface S3ObjectStoreOptions {
  /** `http(s)://host[:port]`; buckets are addressed path-style, as MinIO expects. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
}

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
// minio has no request timeout of its own; without one a black-holed endpoint hangs start-up.
const OPEN_TIMEOUT_MS = 10_000;

/** S3 quotes its ETags; the quotes are not part of the version. */
const unquoted = (etag: unknown): string => (typeof etag === 'string' ? etag.replace(/^"|"$/g, '') : '');

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

const describe = (error: unknown): string => {
  // Node's happy-eyeballs connect reports an AggregateError whose own message is empty.
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof S3Error) return oneLine(`${error.code ?? error.name}: ${error.message}`);
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return oneLine(error.message || code || error.name);
  }
  return oneLine(String(error));
};

const isAbsentKey = (error: unknown): boolean =>
  // GET answers NoSuchKey in its XML body; HEAD has no body, so minio reports a bare 404 as NotFound.
  error instanceof S3Error && (error.code === 'NoSuchKey' || error.code === 'NotFound');

const isValidKey = (key: string): boolean => {
  try {
    validateObjectKey(key);
    return true;
  } catch {
    return false;
  }
};

const parseEndpoint = (endpoint: string) => {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`S3 endpoint is not a URL: ${JSON.stringify(endpoint)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`S3 endpoint must start with http:// or https://, got ${JSON.stringify(url.protocol)}`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new Error(`S3 endpoint must be just http(s)://host[:port] (credentials go in S3_ACCESS_KEY/S3_SECRET_KEY), got ${url.origin}${url.pathname}`);
  }
  const useSSL = url.protocol === 'https:';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    // Never the raw input: it is what error messages show.
    display: url.origin,
  };
};

export async function openS3ObjectStore(options: S3ObjectStoreOptions): Promise<ObjectStore> {
  const { host, port, useSSL, display } = parseEndpoint(options.endpoint);
  const { bucket } = options;
  const region = options.region || 'us-east-1';
  // Our own agent, so close() can drop the keep-alive sockets instead of leaving them to the global one.
  const agent = useSSL ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });

  let client: Client;
  try {
    client = new Client({
      endPoint: host,
      port,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      // With the region given up front minio skips its GetBucketLocation round trip before each call.
      region,
      pathStyle: true,
      transportAgent: agent,
    });
  } catch (error) {
    agent.destroy();
    throw new Error(`invalid S3 settings for ${display}: ${describe(error)}`, { cause: error });
  }

  const ensureBucket = async (): Promise<void> => {
    if (await client.bucketExists(bucket)) return;
    try {
      await client.makeBucket(bucket, region);
    } catch (error) {
      // Another instance starting at the same moment created it first.
      if (!(error instanceof S3Error && error.code === 'BucketAlreadyOwnedByYou')) throw error;
    }
  };

  /** The object's response (headers and body stream), or null when the key holds nothing. */
  const openObject = async (key: string) => {
    validateObjectKey(key);
    try {
      return await client.getObject(bucket, key);
    } catch (error) {
      if (isAbsentKey(error)) return null;
      throw error;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ensureBucket(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${OPEN_TIMEOUT_MS / 1000} s`)), OPEN_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    agent.destroy();
    // minio checks the name locally, so this is a settings mistake, not a server problem.
    if (error instanceof InvalidBucketNameError) throw new Error(`invalid S3 bucket name ${JSON.stringify(bucket)}`, { cause: error });
    if (error instanceof S3Error) {
      throw new Error(`S3 at ${display} refused bucket ${JSON.stringify(bucket)}: ${describe(error)}`, { cause: error });
    }
    throw new Error(`cannot reach S3 at ${display}: ${describe(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }

  return {
    kind: 's3',

    async put(key, body, putOptions = {}) {
      validateObjectKey(key);
      const contentType = putOptions.contentType || DEFAULT_CONTENT_TYPE;
      const written = await client.putObject(bucket, key, body, body.length, { 'Content-Type': contentType });
      return { key, contentType, size: body.length, version: unquoted(written.etag) };
    },

    async get(key): Promise<StoredObject | null> {
      const response = await openObject(key);
      if (!response) return null;
      // minio hands back the HTTP response itself, so the type comes with the bytes in one request
      // rather than from a separate HEAD that a concurrent overwrite could slip between.
      const headers = (response as Partial<IncomingMessage>).headers ?? {};
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const expected = Number(headers['content-length']);
      if (headers['content-length'] !== undefined && expected !== body.length) {
        throw new Error(`S3 sent ${body.length} of ${expected} bytes for ${JSON.stringify(key)}`);
      }
      return { key, body, contentType: headers['content-type'] || DEFAULT_CONTENT_TYPE, size: body.length };
    },

    async getStream(key): Promise<ObjectStream | null> {
      const response = await openObject(key);
      if (!response) return null;
      // The version comes with the bytes, as the type does in get(): no HEAD for a rewrite to slip past.
      const headers = (response as Partial<IncomingMessage>).headers ?? {};
      const size = Number(headers['content-length']);
      return {
        key,
        contentType: headers['content-type'] || DEFAULT_CONTENT_TYPE,
        size: Number.isFinite(size) ? size : 0,
        version: unquoted(headers.etag),
        body: response,
      };
    },

    async head(key): Promise<ObjectInfo | null> {
      validateObjectKey(key);
      try {
        const stat = await client.statObject(bucket, key);
        const contentType = stat.metaData['content-type'];
        return { key, size: stat.size, contentType: typeof contentType === 'string' && contentType ? contentType : DEFAULT_CONTENT_TYPE, version: unquoted(stat.etag) };
      } catch (error) {
        if (isAbsentKey(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      validateObjectKey(key);
      try {
        await client.removeObject(bucket, key);
      } catch (error) {
        // S3 answers 204 for an absent key, but not every compatible server does.
        if (!isAbsentKey(error)) throw error;
      }
    },

    async list(prefix) {
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        const { name } = item as unknown as BucketItem;
        // The bucket may hold objects written by other tools; keys this port refuses could not be
        // read back through it, so they are not offered.
        if (name !== undefined && name.startsWith(prefix) && isValidKey(name)) keys.push(name);
      }
      // S3 already lists in UTF-8 binary order, which for the ASCII key alphabet is this order;
      // sorting keeps the promise with servers that do not.
      return keys.sort();
    },

    async ping() {
      if (!(await client.bucketExists(bucket))) throw new Error(`S3 bucket ${JSON.stringify(bucket)} is missing at ${display}`);
    },

    async close() {
      agent.destroy();
    },
  };
}
