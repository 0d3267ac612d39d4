// s3rver, the S3 protocol peer the tests and CI run against, made read-after-write consistent.
//
// s3rver 3.7 answers a PUT before the object's bytes are on disk: its FilesystemStore resolves when
// the data has passed its md5 transform (or, for a buffer, as soon as writeStream.end() is called),
// not when the file stream has finished. A GET right after the PUT can then read an empty or short
// file; CI hit it once on a loaded machine ("open creates a missing bucket": put 'v', got ''). S3
// and MinIO are strongly consistent for this, and our store relies on it, so the peer must be too.
// The replacement writes to a temporary file (one the listing ignores: it lacks s3rver's suffix),
// waits for it to be closed, and renames it into place, so an overwrite is also never seen half
// written. Plain JavaScript so .ci/s3-server.mjs can use it as the tests do.
import { Buffer } from 'node:buffer';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

/** @param {ConstructorParameters<typeof S3rver>[0]} options */
export function createS3rver(options) {
  const server = new S3rver(options);
  const store = /** @type {any} */ (server).store;
  store.putObject = async function putObject(/** @type {any} */ object) {
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(path.dirname(objectPath), { recursive: true });
    const temporary = `${objectPath}.tmp-${randomUUID()}`;
    const md5 = createHash('md5');
    let size = 0;
    const source = Buffer.isBuffer(object.content) ? [object.content] : object.content;
    try {
      await pipeline(
        source,
        async function* count(/** @type {AsyncIterable<Buffer>} */ chunks) {
          for await (const chunk of chunks) {
            md5.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(temporary),
      );
      await rename(temporary, objectPath);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const digest = md5.digest('hex');
    // The type and md5 follow the bytes, as in s3rver: the PUT answers only after both are written.
    await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
  return server;
}
