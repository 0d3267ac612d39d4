// The ObjectStore port: bytes by key (uploads, catalogue images). Adapters: `files.ts`, `s3.ts`.
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  body: Buffer;
  contentType: string;
  size: number;
}

export interface ObjectInfo {
  key: string;
  contentType: string;
  size: number;
  /**
   * Changes whenever the object is written again (S3: its ETag; files: the data file's inode, time
   * and size), so what is derived from an object can be keyed by what it was derived from.
   */
  version: string;
}

/** An object's bytes as they are read, for a reader that need not hold them whole. */
export interface ObjectStream extends ObjectInfo {
  body: Readable;
}

export interface ObjectStore {
  readonly kind: 'files' | 's3';
  put(key: string, body: Buffer, options?: { contentType?: string }): Promise<ObjectInfo>;
  /** null when absent. */
  get(key: string): Promise<StoredObject | null>;
  /** null when absent. The caller reads `body` to its end or destroys it. */
  getStream(key: string): Promise<ObjectStream | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Deleting an absent key is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix, in lexical order. */
  list(prefix: string): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class InvalidObjectKey extends Error {
  readonly key: string;
  constructor(key: string, reason: string) {
    super(`Invalid object key ${JSON.stringify(key)}: ${reason}`);
    this.key = key;
    this.name = 'InvalidObjectKey';
  }
}

/** Longest key, as S3 allows. */
export const MAX_KEY_BYTES = 1024;
/**
 * Longest path segment. A file system takes 255 bytes a name, and the file store writes a segment
 * with up to 51 more (`+meta.json+tmp-<uuid>`, a write in progress of its type file).
 */
export const MAX_SEGMENT_BYTES = 200;

/**
 * Keys are relative, slash-separated paths of safe characters: no `..` or `.` segments,
 * no leading slash, no backslashes, no empty segments, at most 1024 bytes, at most 200 a segment.
 */
export const validateObjectKey = (key: string): string => {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidObjectKey(String(key), 'empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new InvalidObjectKey(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (key.startsWith('/')) throw new InvalidObjectKey(key, 'absolute paths are not allowed');
  if (!/^[A-Za-z0-9._\-/]+$/.test(key)) throw new InvalidObjectKey(key, 'only letters, digits, ".", "_", "-" and "/" are allowed');
  for (const segment of key.split('/')) {
    if (segment === '') throw new InvalidObjectKey(key, 'empty path segment');
    if (segment === '.' || segment === '..') throw new InvalidObjectKey(key, '"." and ".." segments are not allowed');
    if (segment.length > MAX_SEGMENT_BYTES) throw new InvalidObjectKey(key, `a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  return key;
};
