// A v1 chat's messages (document 1, "Chat (v1, retrieval retired)"): `role` user, assistant or
// system; `content` a string or parts of the five types; each assistant turn the service writes
// has three parts (text, slots, status). The bounds are ours (document 1 names none) and are
// listed in docs/storefront.md, "Chat v1":
//   one message sent to POST /v1/chat       1 to CHAT_LIMITS.message characters once trimmed
//   one text part or string content          at most CHAT_LIMITS.text characters
//   one chat                                 at most CHAT_LIMITS.messages messages and CHAT_LIMITS.characters characters of text
//   parts of one message                     at most CHAT_LIMITS.parts
//   slots of one message / results of a slot at most CHAT_LIMITS.slots / CHAT_LIMITS.results
// `generating` is the service's: a client's value is dropped when messages are replaced. Pure.
import { z } from 'zod';

export const CHAT_LIMITS = {
  message: 4_000,
  text: 20_000,
  messages: 200,
  characters: 200_000,
  parts: 20,
  slots: 20,
  results: 60,
  /** Short fields of a slot (ids, slot names, query words, filter values). */
  field: 500,
  imageUrl: 2_048,
} as const;

export const CHAT_ROLES = ['user', 'assistant', 'system'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];
export const CHAT_STATUSES = ['resolved', 'needs_clarification'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];

export interface SlotResult {
  itemId: string;
  description: string;
  displayOrder: number;
}

export interface SearchFilters {
  fit: string | null;
  pattern: string | null;
  material: string | null;
  color_family: string | null;
  color_rgb: string | null;
  family: string | null;
  exclude_terms: string[];
  boost_terms: string[];
  minPrice: number | null;
  maxPrice: number | null;
}

export interface SearchSlot {
  id: string;
  type: 'search';
  slot: string;
  query: string;
  filters: SearchFilters;
  results: SlotResult[];
}

export interface OutfitSlot {
  id: string;
  type: 'outfit_compositions';
  results: SlotResult[];
  /** The item ids worn together, in the order they are shown. */
  compositions: string[];
}

export type ChatSlot = SearchSlot | OutfitSlot;

export type ChatPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'output_text'; text: string }
  | { type: 'output_slots'; slots: ChatSlot[] }
  | { type: 'output_status'; status: ChatStatus; generating?: boolean };

export interface ChatMessage {
  role: ChatRole;
  content: string | ChatPart[];
}

/** Document 1's Chat record. */
export interface Chat {
  chatId: string;
  messages: ChatMessage[];
  createdAt: string;
  updatedAt: string;
}

export const chatMessages = {
  notFound: 'Chat not found or you do not have permission to access it.',
  chatId: 'A valid chatId is required.',
  message: `message must be a string of 1 to ${CHAT_LIMITS.message} characters.`,
  messages: `messages must be an array of at most ${CHAT_LIMITS.messages} messages.`,
  role: (i: number) => `messages[${i}].role must be one of ${CHAT_ROLES.join(', ')}.`,
  content: (i: number) => `messages[${i}].content must be a string of at most ${CHAT_LIMITS.text} characters or an array of 1 to ${CHAT_LIMITS.parts} parts.`,
  part: (i: number, p: number, role: ChatRole) => `messages[${i}].content[${p}] must be a part of type ${partTypesOf(role).join(', ')} for a ${role} message.`,
  partField: (i: number, p: number, field: string, rule: string) => `messages[${i}].content[${p}].${field} ${rule}`,
  characters: `A chat holds at most ${CHAT_LIMITS.characters} characters of text.`,
  full: `This chat has reached ${CHAT_LIMITS.messages} messages; start a new chat.`,
  fullText: `This chat has reached ${CHAT_LIMITS.characters} characters of text; start a new chat.`,
  tooManyChats: (max: number) => `This organization has reached ${max} chats; delete some before starting more.`,
} as const;

const USER_PARTS = ['input_text', 'input_image'] as const;
const ASSISTANT_PARTS = ['output_text', 'output_slots', 'output_status'] as const;

/** The part types a message of `role` may hold: the shopper and the system write input, the assistant output. */
export const partTypesOf = (role: ChatRole): readonly string[] => (role === 'assistant' ? ASSISTANT_PARTS : USER_PARTS);

/** Characters of text a message carries (its string, or its text parts), which count against the chat's bound. */
export const messageCharacters = (message: ChatMessage): number =>
  typeof message.content === 'string'
    ? message.content.length
    : message.content.reduce((sum, part) => sum + (part.type === 'input_text' || part.type === 'output_text' ? part.text.length : 0), 0);

/** A message's words: its string, or its text parts joined by a blank line. */
export const messageText = (message: ChatMessage): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content.flatMap((part) => (part.type === 'input_text' || part.type === 'output_text' ? [part.text] : [])).join('\n\n');

export const statusOf = (message: ChatMessage): { status: ChatStatus; generating: boolean } | null => {
  if (typeof message.content === 'string') return null;
  const part = message.content.find((p) => p.type === 'output_status');
  return part && part.type === 'output_status' ? { status: part.status, generating: part.generating === true } : null;
};

export const slotsOf = (message: ChatMessage): ChatSlot[] => {
  if (typeof message.content === 'string') return [];
  const part = message.content.find((p) => p.type === 'output_slots');
  return part && part.type === 'output_slots' ? part.slots : [];
};

export const userMessage = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'input_text', text }] });

/** An assistant turn in document 1's three parts. */
export const assistantTurn = (text: string, slots: ChatSlot[], status: ChatStatus, generating = false): ChatMessage => ({
  role: 'assistant',
  content: [{ type: 'output_text', text }, { type: 'output_slots', slots }, { type: 'output_status', status, ...(generating ? { generating: true } : {}) }],
});

/** The trailing assistant message while its reply is being written. */
export const generatingTurn = (): ChatMessage => assistantTurn('', [], 'resolved', true);

// --- Reading messages a merchant sends (PUT /v1/chat/{chatId}/messages, POST /v1/chat/create) ---

const shortText = z.string().max(CHAT_LIMITS.field);
const nullableText = shortText.nullable().default(null);
const slotResult = z.object({ itemId: shortText.min(1), description: z.string().max(CHAT_LIMITS.text).default(''), displayOrder: z.number().int().min(0).max(1_000_000) });
const results = z.array(slotResult).max(CHAT_LIMITS.results);
const price = z.number().min(0).max(1e9).nullable().default(null);
const terms = z.array(shortText).max(50).default([]);

const searchSlot = z.object({
  id: shortText.min(1),
  type: z.literal('search'),
  slot: shortText,
  query: shortText.default(''),
  filters: z
    .object({
      fit: nullableText,
      pattern: nullableText,
      material: nullableText,
      color_family: nullableText,
      color_rgb: nullableText,
      family: nullableText,
      exclude_terms: terms,
      boost_terms: terms,
      minPrice: price,
      maxPrice: price,
    })
    .default({ fit: null, pattern: null, material: null, color_family: null, color_rgb: null, family: null, exclude_terms: [], boost_terms: [], minPrice: null, maxPrice: null }),
  results: results.default([]),
});

const outfitSlot = z.object({
  id: shortText.min(1),
  type: z.literal('outfit_compositions'),
  results: results.default([]),
  compositions: z.array(shortText.min(1)).max(CHAT_LIMITS.results).default([]),
});

const slotSchema = z.discriminatedUnion('type', [searchSlot, outfitSlot]);

const textRule = `must be a string of at most ${CHAT_LIMITS.text} characters.`;

/** One part of message `i` (role `role`), or the message of what is wrong with it. */
function readPart(value: unknown, i: number, p: number, role: ChatRole): { ok: true; part: ChatPart } | { ok: false; message: string } {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !partTypesOf(role).includes(type)) return { ok: false, message: chatMessages.part(i, p, role) };
  const part = value as Record<string, unknown>;
  const field = (name: string, rule: string) => ({ ok: false as const, message: chatMessages.partField(i, p, name, rule) });
  switch (type) {
    case 'input_text':
    case 'output_text':
      if (typeof part.text !== 'string' || part.text.length > CHAT_LIMITS.text) return field('text', textRule);
      return { ok: true, part: { type, text: part.text } };
    case 'input_image': {
      const url = part.image_url;
      if (typeof url !== 'string' || url.length > CHAT_LIMITS.imageUrl || !/^https?:\/\/\S+$/i.test(url)) return field('image_url', `must be an http or https URL of at most ${CHAT_LIMITS.imageUrl} characters.`);
      return { ok: true, part: { type, image_url: url } };
    }
    case 'output_slots': {
      const slots = z.array(slotSchema).max(CHAT_LIMITS.slots).safeParse(part.slots);
      if (!slots.success) {
        const issue = slots.error.issues[0]!;
        return field(['slots', ...issue.path].map(String).join('.').replace(/\.(\d+)/g, '[$1]'), `is not valid: ${issue.message}`);
      }
      return { ok: true, part: { type, slots: slots.data as ChatSlot[] } };
    }
    case 'output_status':
      if (!(CHAT_STATUSES as readonly unknown[]).includes(part.status)) return field('status', `must be one of ${CHAT_STATUSES.join(', ')}.`);
      // `generating` is server-managed: whatever a client says, a replaced message is not being written.
      return { ok: true, part: { type, status: part.status as ChatStatus } };
    default:
      return { ok: false, message: chatMessages.part(i, p, role) };
  }
}

function readMessage(value: unknown, i: number): { ok: true; message: ChatMessage } | { ok: false; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: chatMessages.role(i) };
  const { role, content } = value as { role?: unknown; content?: unknown };
  if (!(CHAT_ROLES as readonly unknown[]).includes(role)) return { ok: false, message: chatMessages.role(i) };
  const r = role as ChatRole;
  if (typeof content === 'string') return content.length > CHAT_LIMITS.text ? { ok: false, message: chatMessages.content(i) } : { ok: true, message: { role: r, content } };
  if (!Array.isArray(content) || content.length < 1 || content.length > CHAT_LIMITS.parts) return { ok: false, message: chatMessages.content(i) };
  const parts: ChatPart[] = [];
  for (const [p, raw] of content.entries()) {
    const read = readPart(raw, i, p, r);
    if (!read.ok) return read;
    parts.push(read.part);
  }
  return { ok: true, message: { role: r, content: parts } };
}

/** `messages` of a replace or create body: each message's role, parts and sizes, then the chat's bounds. */
export const chatMessagesSchema = z
  .array(z.unknown(), { error: chatMessages.messages })
  .max(CHAT_LIMITS.messages, chatMessages.messages)
  .transform((values, context): ChatMessage[] => {
    const messages: ChatMessage[] = [];
    for (const [i, value] of values.entries()) {
      const read = readMessage(value, i);
      if (!read.ok) {
        context.addIssue({ code: 'custom', message: read.message, path: [i] });
        return z.NEVER;
      }
      messages.push(read.message);
    }
    if (messages.reduce((sum, message) => sum + messageCharacters(message), 0) > CHAT_LIMITS.characters) {
      context.addIssue({ code: 'custom', message: chatMessages.characters, path: [] });
      return z.NEVER;
    }
    return messages;
  });
