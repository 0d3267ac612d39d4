// The built-in offline stylist (DESIGN.md "Agent turn", the embedded default ChatModel): no LLM,
// the planner of domain/agent/stylist answers each model call with the tool calls an LLM would make
// or the final reply. This adapter streams that step the way a model streams: the reply in small
// word chunks, the one-line reasoning summary only at thinking levels medium and high, tool calls
// with ids unique in the conversation. Photos in the shopper's latest message are read for their
// main colour (the labeller's photo colour reading, on a small raster) so "shoes like this" finds
// shoes in that colour. A shopper who leaves (request.signal) stops it at once.
import sharp from 'sharp';
import { nearestFamily } from '../../domain/catalogue/colours.js';
import type { ColorFamily } from '../../domain/catalogue/vocabulary.js';
import { AGENT_LIMITS, isCall, isUser, readDataUri, userImages, type HistoryEntry } from '../../domain/agent/messages.js';
import { THINKING_LEVELS } from '../../domain/agent/request.js';
import { nextStep } from '../../domain/agent/stylist/index.js';
import type { ChatModel, ChatModelRequest, ModelOutput } from './chat.js';
import { photoColour } from './offline/colour.js';

/** Words per streamed text fragment. */
const WORDS_PER_CHUNK = 3;
/** The raster a photo is read on, as ingest reads product photos (workers/ingest/photos.ts). */
const RASTER = 64;
const DECODE_SECONDS = 5;

/** Text in fragments of a few words, spaces kept, so the fragments join back to the text. */
export function chunks(text: string, words = WORDS_PER_CHUNK): string[] {
  const parts = text.match(/\s*\S+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += words) out.push(parts.slice(i, i + words).join(''));
  const trailing = /\s+$/.exec(text)?.[0];
  if (trailing && out.length) out[out.length - 1] += trailing;
  return out;
}

/** The next call id: past every `call_<n>` and every call already in the conversation. */
export function firstCallNumber(messages: readonly HistoryEntry[]): number {
  let highest = 0;
  let calls = 0;
  for (const entry of messages) {
    if (!isCall(entry)) continue;
    calls++;
    const n = /^call_(\d{1,9})$/.exec(entry.callId)?.[1];
    if (n) highest = Math.max(highest, Number(n));
  }
  return Math.max(highest, calls) + 1;
}

/** The main colour family of a photo (a data URI), or null when it cannot be read. */
export async function imageColour(uri: string): Promise<ColorFamily | null> {
  const read = readDataUri(uri);
  if (!read || read.bytes > AGENT_LIMITS.imageBytes) return null;
  try {
    const raster = await sharp(Buffer.from(read.base64, 'base64'), { limitInputPixels: AGENT_LIMITS.imagePixels, pages: 1 })
      .timeout({ seconds: DECODE_SECONDS })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: RASTER, height: RASTER, fit: 'inside' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rgb = photoColour({ jpeg: Buffer.alloc(0), pixels: { data: new Uint8Array(raster.data), width: raster.info.width, height: raster.info.height } });
    return rgb ? nearestFamily(rgb) : null;
  } catch {
    return null;
  }
}

// A turn calls the model several times over the same latest message: its photos are read once.
const colourMemo = new Map<string, ColorFamily | null>();
const memoKey = (uri: string) => `${uri.length}:${uri.slice(0, 96)}:${uri.slice(-256)}`;

async function latestImageColours(messages: readonly HistoryEntry[], signal: AbortSignal): Promise<ColorFamily[]> {
  const latest = [...messages].reverse().find(isUser);
  const images = latest ? userImages(latest).slice(0, AGENT_LIMITS.images) : [];
  const colours: ColorFamily[] = [];
  for (const uri of images) {
    signal.throwIfAborted();
    const key = memoKey(uri);
    let colour = colourMemo.get(key);
    if (colour === undefined) {
      colour = await imageColour(uri);
      if (colourMemo.size >= 32) colourMemo.delete(colourMemo.keys().next().value!);
      colourMemo.set(key, colour);
    }
    if (colour && !colours.includes(colour)) colours.push(colour);
  }
  return colours;
}

export function createOfflineStylist(): ChatModel {
  return {
    name: 'offline-stylist',
    thinkingLevels: THINKING_LEVELS,
    async *respond(request: ChatModelRequest): AsyncIterable<ModelOutput> {
      const { signal } = request;
      signal.throwIfAborted();
      const imageColours = await latestImageColours(request.messages, signal);
      signal.throwIfAborted();
      const step = nextStep({ context: request.context, messages: request.messages, tools: request.tools.map((tool) => tool.name), imageColours });
      if (step.thinking && (request.thinking === 'medium' || request.thinking === 'high')) {
        for (const delta of chunks(step.thinking)) {
          signal.throwIfAborted();
          yield { type: 'thinking_delta', delta };
        }
        yield { type: 'thinking_done' };
      }
      for (const delta of chunks(step.text ?? '')) {
        signal.throwIfAborted();
        yield { type: 'text_delta', delta };
      }
      const first = firstCallNumber(request.messages);
      for (const [i, call] of step.toolCalls.entries()) {
        signal.throwIfAborted();
        yield { type: 'tool_call', callId: `call_${first + i}`, name: call.name, arguments: JSON.stringify(call.arguments) };
      }
    },
  };
}
