// Small helpers for HTTP clients of other people's servers: what a failed fetch really was,
// Retry-After, abortable sleeps, and the wording of sizes and durations in messages.

/** Undici hides the system error under `cause`, sometimes inside an AggregateError (one per address tried). */
export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof candidate.code === 'string') return candidate.code;
    const inner = candidate.errors?.[0] as { code?: unknown } | undefined;
    if (typeof inner?.code === 'string') return inner.code;
    current = candidate.cause;
  }
  return undefined;
}

export function deepestMessage(error: unknown): string {
  let message = String(error);
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

export function retryAfterMs(header: string | null): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Frees the connection for the next request without reading a body nobody wants. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

export const isJson = (mediaType: string): boolean => mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json');

export function isWebUrl(address: string): boolean {
  try {
    const { protocol } = new URL(address);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function withoutQuery(address: string): string {
  const url = new URL(address);
  return `${url.origin}${url.pathname}`;
}

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}
