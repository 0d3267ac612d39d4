// The conversation of POST /v2/agent/chat (document 2, "Message shapes"): what a client sends as
// `messages` and what `done.history` gives back, in the same four shapes, so a client replays the
// history verbatim with its shopper's next message appended. Nothing is kept by the service
// between requests: the history is the whole memory of a conversation, for the model too (the
// offline stylist reads earlier turns' tool calls to understand "cheaper" or "in blue").
//
// Bounds (document 1 gives only "at least 1 item"; the rest is ours, docs/storefront.md "The stylist agent"):
// a conversation of at most AGENT_LIMITS.messages entries and AGENT_LIMITS.characters characters of
// text in all, each text at most AGENT_LIMITS.text, at most AGENT_LIMITS.images images in the whole
// conversation, each at most AGENT_LIMITS.imageBytes decoded. Pure.
import { z } from 'zod';

export const AGENT_LIMITS = {
  messages: 200,
  /** One text part, one function call's arguments or one result's text. */
  text: 20_000,
  /** Every text of the conversation together. */
  characters: 200_000,
  images: 4,
  /** Decoded bytes of one `input_image`. */
  imageBytes: 5 * 1024 * 1024,
  /** Pixels of one image (width × height), read from its header before anything decodes it. */
  imagePixels: 25_000_000,
  /** Parts of one user message. */
  parts: 20,
  callId: 200,
  toolName: 64,
} as const;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;

export const messageErrors = {
  messages: `messages must be an array of 1 to ${AGENT_LIMITS.messages} messages.`,
  shape: (i: number | string) =>
    `messages[${i}] must be a user message ({ role: "user", content }), an assistant message ({ type: "message", role: "assistant", content }), a function_call or a function_call_result.`,
  text: (path: string) => `${path} must be a string of at most ${AGENT_LIMITS.text} characters.`,
  parts: (i: number | string) => `messages[${i}].content must be a string or an array of 1 to ${AGENT_LIMITS.parts} input_text and input_image parts.`,
  image: (path: string) => `${path}.image must be a data URI: data:image/<jpeg|png|webp|gif|avif>;base64,<data>.`,
  imageBytes: (path: string) => `${path}.image is over ${AGENT_LIMITS.imageBytes / 1024 / 1024} MB.`,
  imagePixels: (path: string) => `${path}.image is over ${AGENT_LIMITS.imagePixels / 1_000_000} megapixels.`,
  imageUnreadable: (path: string) => `${path}.image could not be read as an image of its declared type.`,
  images: `messages may carry at most ${AGENT_LIMITS.images} images in all.`,
  characters: `messages carry at most ${AGENT_LIMITS.characters} characters of text in all.`,
  lastIsUser: 'The last message must be the shopper\'s new user message.',
  callId: (path: string) => `${path}.callId must be a string of 1 to ${AGENT_LIMITS.callId} characters.`,
  name: (path: string) => `${path}.name must be a string of 1 to ${AGENT_LIMITS.toolName} characters.`,
} as const;

export type InputTextPart = { type: 'input_text'; text: string };
export type InputImagePart = { type: 'input_image'; image: string };
export type UserPart = InputTextPart | InputImagePart;

export interface UserMessage {
  role: 'user';
  content: string | UserPart[];
}

export interface AssistantMessage {
  type: 'message';
  role: 'assistant';
  status: 'completed';
  content: Array<{ type: 'output_text'; text: string }>;
}

export interface FunctionCall {
  type: 'function_call';
  callId: string;
  name: string;
  /** JSON text, as the model wrote it (possibly malformed: it is history, kept as written). */
  arguments: string;
  status: 'completed';
}

export interface FunctionCallResult {
  type: 'function_call_result';
  callId: string;
  name: string;
  status: 'completed';
  output: { type: 'text'; text: string };
}

export type HistoryEntry = UserMessage | AssistantMessage | FunctionCall | FunctionCallResult;

export const isUser = (entry: HistoryEntry): entry is UserMessage => 'role' in entry && entry.role === 'user';
export const isAssistant = (entry: HistoryEntry): entry is AssistantMessage => 'type' in entry && entry.type === 'message';
export const isCall = (entry: HistoryEntry): entry is FunctionCall => 'type' in entry && entry.type === 'function_call';
export const isResult = (entry: HistoryEntry): entry is FunctionCallResult => 'type' in entry && entry.type === 'function_call_result';

/** A user message's words, its text parts joined by a blank line. */
export const userText = (message: UserMessage): string =>
  typeof message.content === 'string' ? message.content : message.content.flatMap((part) => (part.type === 'input_text' ? [part.text] : [])).join('\n\n');

/** A user message's images (data URIs). */
export const userImages = (message: UserMessage): string[] =>
  typeof message.content === 'string' ? [] : message.content.flatMap((part) => (part.type === 'input_image' ? [part.image] : []));

export const assistantText = (message: AssistantMessage): string => message.content.map((part) => part.text).join('');

export const assistantMessage = (text: string): AssistantMessage => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });

export const functionCall = (callId: string, name: string, args: string): FunctionCall => ({ type: 'function_call', callId, name, arguments: args, status: 'completed' });

export const functionCallResult = (callId: string, name: string, text: string): FunctionCallResult => ({
  type: 'function_call_result',
  callId,
  name,
  status: 'completed',
  output: { type: 'text', text },
});

const text = (path: string) => z.string({ error: messageErrors.text(path) }).max(AGENT_LIMITS.text, messageErrors.text(path));

const DATA_URI = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]*)$/;

/** The declared type and decoded bytes of an image data URI; null when it is not one of IMAGE_TYPES. */
export function readDataUri(uri: string): { contentType: string; base64: string; bytes: number } | null {
  // Checked on the head only: a regular expression over megabytes of base64 is slow for nothing.
  const comma = uri.indexOf(',');
  if (comma < 0 || comma > 64) return null;
  const head = DATA_URI.exec(uri.slice(0, comma + 1));
  if (!head || !(IMAGE_TYPES as readonly string[]).includes(head[1]!)) return null;
  const base64 = uri.slice(comma + 1).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) return null;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return { contentType: head[1]!, base64, bytes: Math.floor((base64.length * 3) / 4) - padding };
}

/** Where an entry's index goes in its checks' messages: the schemas are built once, the index put in on failure. */
const AT = '\u0000at\u0000';
const INDEX = '\u0000i\u0000';

const entryShapes = (() => {
  const at = AT;
  const user = z.object({
    role: z.literal('user'),
    content: z.union(
      [
        text(`${at}.content`),
        z
          .array(
            z.discriminatedUnion(
              'type',
              [
                z.object({ type: z.literal('input_text'), text: text(`${at}.content[].text`) }),
                z.object({
                  type: z.literal('input_image'),
                  image: z.string({ error: messageErrors.image(`${at}.content[]`) }).refine((uri) => readDataUri(uri) !== null, messageErrors.image(`${at}.content[]`)),
                }),
              ],
              { error: messageErrors.parts(INDEX) },
            ),
            { error: messageErrors.parts(INDEX) },
          )
          .min(1, messageErrors.parts(INDEX))
          .max(AGENT_LIMITS.parts, messageErrors.parts(INDEX)),
      ],
      { error: messageErrors.parts(INDEX) },
    ),
  });
  const callId = z.string({ error: messageErrors.callId(at) }).min(1, messageErrors.callId(at)).max(AGENT_LIMITS.callId, messageErrors.callId(at));
  const name = z.string({ error: messageErrors.name(at) }).min(1, messageErrors.name(at)).max(AGENT_LIMITS.toolName, messageErrors.name(at));
  const shape = messageErrors.shape(INDEX);
  return {
    user,
    assistant: z.object({
      type: z.literal('message'),
      role: z.literal('assistant'),
      status: z.literal('completed').default('completed'),
      content: z.array(z.object({ type: z.literal('output_text'), text: text(`${at}.content[].text`) }), { error: shape }).max(AGENT_LIMITS.parts, shape),
    }),
    call: z.object({ type: z.literal('function_call'), callId, name, arguments: text(`${at}.arguments`), status: z.literal('completed').default('completed') }),
    result: z.object({
      type: z.literal('function_call_result'),
      callId,
      name,
      status: z.literal('completed').default('completed'),
      output: z.object({ type: z.literal('text'), text: text(`${at}.output.text`) }, { error: shape }),
    }),
  };
})();

/** The schema of an entry's shape, chosen by its `role` and `type`; null when it has none of the four. */
function shapeOf(value: unknown): z.ZodType | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { role, type } = value as { role?: unknown; type?: unknown };
  if (role === 'user' && type === undefined) return entryShapes.user;
  if (type === 'message') return entryShapes.assistant;
  if (type === 'function_call') return entryShapes.call;
  if (type === 'function_call_result') return entryShapes.result;
  return null;
}

/** Entry `i` checked against its shape: the entry, or the messages of what is wrong with it (naming the index). */
function readEntry(value: unknown, i: number): { ok: true; entry: HistoryEntry } | { ok: false; issues: Array<{ message: string; path: PropertyKey[] }> } {
  const shape = shapeOf(value);
  if (!shape) return { ok: false, issues: [{ message: messageErrors.shape(i), path: [] }] };
  const parsed = shape.safeParse(value);
  if (parsed.success) return { ok: true, entry: parsed.data as HistoryEntry };
  const named = (message: string) => message.replaceAll(AT, `messages[${i}]`).replaceAll(INDEX, String(i));
  return { ok: false, issues: parsed.error.issues.map((issue) => ({ message: named(issue.message), path: issue.path })) };
}

/** The characters of an entry that count against the conversation's bounds. */
export const textLength = (entry: HistoryEntry): number => {
  if (isUser(entry)) return typeof entry.content === 'string' ? entry.content.length : entry.content.reduce((sum, part) => sum + (part.type === 'input_text' ? part.text.length : 0), 0);
  if (isAssistant(entry)) return entry.content.reduce((sum, part) => sum + part.text.length, 0);
  if (isCall(entry)) return entry.arguments.length;
  return entry.output.text.length;
};

/** `messages` of a chat request: the shapes, then the bounds over the whole conversation. */
export const messagesSchema = z
  .array(z.unknown(), { error: messageErrors.messages })
  .min(1, messageErrors.messages)
  .max(AGENT_LIMITS.messages, messageErrors.messages)
  .transform((entries, context): HistoryEntry[] => {
    const parsed: HistoryEntry[] = [];
    for (const [i, value] of entries.entries()) {
      const result = readEntry(value, i);
      if (!result.ok) {
        for (const issue of result.issues) context.addIssue({ code: 'custom', message: issue.message, path: [i, ...issue.path] });
        return z.NEVER;
      }
      parsed.push(result.entry);
    }
    if (parsed.reduce((sum, entry) => sum + textLength(entry), 0) > AGENT_LIMITS.characters) {
      context.addIssue({ code: 'custom', message: messageErrors.characters, path: [] });
      return z.NEVER;
    }
    const images = parsed.flatMap((entry) => (isUser(entry) ? userImages(entry) : []));
    if (images.length > AGENT_LIMITS.images) {
      context.addIssue({ code: 'custom', message: messageErrors.images, path: [] });
      return z.NEVER;
    }
    for (const [i, entry] of parsed.entries()) {
      if (!isUser(entry) || typeof entry.content === 'string') continue;
      for (const [p, part] of entry.content.entries()) {
        if (part.type !== 'input_image') continue;
        if (readDataUri(part.image)!.bytes > AGENT_LIMITS.imageBytes) {
          context.addIssue({ code: 'custom', message: messageErrors.imageBytes(`messages[${i}].content[${p}]`), path: [i, 'content', p, 'image'] });
          return z.NEVER;
        }
      }
    }
    if (!isUser(parsed.at(-1)!)) {
      context.addIssue({ code: 'custom', message: messageErrors.lastIsUser, path: [entries.length - 1] });
      return z.NEVER;
    }
    return parsed;
  });
