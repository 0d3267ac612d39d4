// The ObjectStore port: bytes by key (uploads, catalogue images). Adapters: `files.ts`, `s3.ts`.

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
}

export interface ObjectStore {
  readonly kind: 'files' | 's3';
  put(key: string, body: Buffer, options?: { contentType?: string }): Promise<ObjectInfo>;
  /** null when absent. */
  get(key: string): Promise<StoredObject | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Deleting an absent key is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix, in lexical order. */
  list(prefix: string): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class InvalidObjectKey extends Error {
  constructor(readonly key: string, reason: string) {
    super(`Invalid object key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidObjectKey';
  }
}

/**
 * Keys are relative, slash-separated paths of safe characters: no `..` or `.` segments,
 * no leading slash, no backslashes, no empty segments, at most 1024 bytes.
 */
export const validateObjectKey = (key: string): string => {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidObjectKey(String(key), 'empty');
  if (Buffer.byteLength(key) > 1024) throw new InvalidObjectKey(key, 'longer than 1024 bytes');
  if (key.startsWith('/')) throw new InvalidObjectKey(key, 'absolute paths are not allowed');
  if (!/^[A-Za-z0-9._\-/]+$/.test(key)) throw new InvalidObjectKey(key, 'only letters, digits, ".", "_", "-" and "/" are allowed');
  for (const segment of key.split('/')) {
    if (segment === '') throw new InvalidObjectKey(key, 'empty path segment');
    if (segment === '.' || segment === '..') throw new InvalidObjectKey(key, '"." and ".." segments are not allowed');
  }
  return key;
};
