// The widget's calls to the service: preflight, one chat turn read as Server-Sent Events, and a
// look's picture. Every failure becomes an ApiError carrying the text a shopper may read (the API's
// own `error` when it gave one).
import type { AgentEvent, Preflight } from './types.js';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A parsed SSE frame with the moment its bytes were read off the stream (performance.now()). */
export type TimedEvent = AgentEvent & { arrival: number };

const messageFor = (status: number): string =>
  status === 429
    ? 'Too many requests right now. Please try again in a moment.'
    : status >= 500
      ? 'The stylist is unavailable right now. Please try again.'
      : `The request failed (${status}).`;

/** The JSON `{ error }` of a refused request, or a generic sentence for its status. */
async function failure(response: Response): Promise<ApiError> {
  let text = '';
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') text = body.error;
  } catch {
    // not JSON: the generic sentence below
  }
  return new ApiError(text || messageFor(response.status), response.status);
}

async function request(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('Could not reach the stylist. Check your connection and try again.', 0);
  }
  if (!response.ok) throw await failure(response);
  return response;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
  ) {}

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' };
  }

  async preflight(themeId: string | null): Promise<Preflight> {
    const query = themeId ? `?themeId=${encodeURIComponent(themeId)}` : '';
    const response = await request(`${this.baseUrl}/v1/widget/preflight${query}`, { headers: { authorization: `Bearer ${this.key}` } });
    return (await response.json()) as Preflight;
  }

  async look(body: { itemIds: string[]; label?: string; customInstructions?: string; country?: string }): Promise<{ imageData: string; width: number; height: number; label?: string }> {
    const response = await request(`${this.baseUrl}/v2/agent/looks`, { method: 'POST', headers: this.headers(), body: JSON.stringify(body) });
    return ((await response.json()) as { visualization: { imageData: string; width: number; height: number; label?: string } }).visualization;
  }

  /** One turn: yields each event as its frame arrives; ends after `done`/`error` or when the stream does. */
  async *chat(body: object, signal: AbortSignal): AsyncGenerator<TimedEvent> {
    const response = await request(`${this.baseUrl}/v2/agent/chat`, {
      method: 'POST',
      headers: { ...this.headers(), accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.body) throw new ApiError('The stylist sent no answer. Please try again.', response.status);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let ended = false;
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        const arrival = performance.now();
        buffer += decoder.decode(chunk.value, { stream: true });
        // Frames end with a blank line; a frame may be split across chunks, so the tail waits.
        const frames = buffer.split(/\r?\n\r?\n/);
        buffer = frames.pop() ?? '';
        for (const frame of frames) {
          const parsed = parseFrame(frame);
          if (parsed && (parsed.event === 'done' || parsed.event === 'error')) ended = true;
          if (parsed) yield { ...parsed, arrival } as TimedEvent;
        }
      }
    } finally {
      // After `done` or `error` the server closes the stream at once: read it to its end, so the
      // request completes rather than being cancelled (a cancelled request is a failed one to the
      // page). Stopped early (the stop button): let go of the body.
      if (ended && !signal.aborted) {
        for (;;) {
          const rest = await reader.read().catch(() => null);
          if (!rest || rest.done) break;
        }
      } else reader.cancel().catch(() => undefined);
    }
  }
}

function parseFrame(frame: string): AgentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of frame.split(/\r?\n/)) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (!data.length) return null;
  try {
    return { event, data: JSON.parse(data.join('\n')) } as AgentEvent;
  } catch {
    return null;
  }
}
