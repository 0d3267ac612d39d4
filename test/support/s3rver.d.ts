// s3rver ships no types; this covers the part the object-store tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  import type { Server } from 'node:http';

  interface S3rverOptions {
    address?: string;
    /** 0 picks a free port; run() reports which. */
    port?: number;
    /** Where buckets and objects are kept on disk. */
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>;
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    /** Set once run() has resolved. */
    httpServer?: Server;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    reset(): void;
  }

  export = S3rver;
}
