// Upload of ten 1 MB photos in one request (issue 14: goal ≤ 300 ms on 2 cores), measured from
// the client against any running service: `measureUploads(baseUrl, privateKey)` makes ten distinct
// photo-sized JPEGs, warms up, then sends the same ten-file request `requests` times in a row and
// returns the times. Every request stores ten new files (ids are per upload), so the figures include
// the byte checks, sharp's decode, hashing, the object store writes and the ten event appends.
import sharp from 'sharp';

export interface UploadTiming {
  files: number;
  /** Mean bytes per photo. */
  bytesPerFile: number;
  requests: number;
  minMs: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
  meanMs: number;
  /** Megabytes of photos stored per second at the median. */
  mbPerSecond: number;
  /**
   * CPU time (user + system, every thread) this process spent per request: with the service in the
   * same process (bench/uploads.ts), what one upload costs whatever else the machine is doing.
   */
  cpuMsPerRequest: number;
}

export interface UploadOptions {
  files?: number;
  bytesPerFile?: number;
  requests?: number;
  warmup?: number;
}

const BOUNDARY = 'stylist-bench-boundary';

/** A photo-sized JPEG: noise does not compress, so 1 MB needs about 1,300×1,300 pixels at quality 80. */
async function photo(bytes: number, seed: number): Promise<Buffer> {
  const side = Math.round(Math.sqrt(bytes / 0.58));
  const pixels = Buffer.alloc(side * side * 3);
  let state = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    pixels[i] = state >>> 24;
  }
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

function body(photos: Buffer[]): Buffer {
  const chunks: Buffer[] = [];
  photos.forEach((bytes, index) => {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo-${index + 1}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), bytes, Buffer.from('\r\n'));
  });
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

export async function measureUploads(baseUrl: string, privateKey: string, options: UploadOptions = {}): Promise<UploadTiming> {
  const files = options.files ?? 10;
  const photos = await Promise.all(Array.from({ length: files }, (_, i) => photo(options.bytesPerFile ?? 1_000_000, i + 1)));
  const payload = body(photos);
  const send = async () => {
    const started = performance.now();
    const response = await fetch(new URL('/v1/file/upload', baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${privateKey}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: payload,
    });
    const answer = (await response.json()) as { summary?: { succeeded: number } };
    const elapsed = performance.now() - started;
    if (response.status !== 200 || answer.summary?.succeeded !== files) throw new Error(`upload answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    return elapsed;
  };
  for (let i = 0; i < (options.warmup ?? 3); i++) await send();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < (options.requests ?? 20); i++) times.push(await send());
  const used = process.cpuUsage(cpu);
  const sorted = [...times].sort((a, b) => a - b);
  const bytesPerFile = Math.round(photos.reduce((sum, p) => sum + p.length, 0) / files);
  const p50 = percentile(sorted, 0.5);
  return {
    files,
    bytesPerFile,
    requests: times.length,
    minMs: round(sorted[0]!),
    p50Ms: round(p50),
    p90Ms: round(percentile(sorted, 0.9)),
    maxMs: round(sorted.at(-1)!),
    meanMs: round(times.reduce((a, b) => a + b, 0) / times.length),
    mbPerSecond: round((bytesPerFile * files) / 2 ** 20 / (p50 / 1000)),
    cpuMsPerRequest: round((used.user + used.system) / 1000 / times.length),
  };
}
