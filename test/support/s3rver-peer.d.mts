import type S3rver from 's3rver';

/** An s3rver whose PUT answers only once the object is on disk (see s3rver-peer.mjs). */
export function createS3rver(options?: ConstructorParameters<typeof S3rver>[0]): S3rver;
