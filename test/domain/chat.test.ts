// The v1 chat deciders (a chat's stream and its organization's ledger) given/when/then, and the pure
// pieces around them: reading the messages a merchant sends, the history a turn sends the stylist,
// and the reply written from a v2 agent turn.
import t from 'tap';
import { AGENT_LIMITS, assistantMessage, functionCall, functionCallResult, type HistoryEntry } from '../../domain/agent/messages.js';
import type { AgentEvent, Done } from '../../domain/agent/stream-events.js';
import { agentMessages } from '../../domain/chat/agent-history.js';
import {
  assistantTurn,
  CHAT_LIMITS,
  chatDecider,
  chatLedgerDecider,
  chatMessages,
  chatMessagesSchema,
  generatingTurn,
  initialLedger,
  userMessage,
  type ChatCommand,
  type ChatEvent,
  type ChatLedgerEvent,
  type ChatMessage,
  type Sealed,
} from '../../domain/chat/index.js';
import { ReplyBuilder } from '../../domain/chat/reply.js';
import type { TranscriptEntry } from '../../domain/chat/transcript.js';
import { Invalid, NotFound } from '../../domain/errors.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(chatDecider);
const ledgerSpec = specFor(chatLedgerDecider);
const chatId = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const other = '5e2b7d44-6a0f-4d8b-9b1e-3c9f2a7e4b02';
const turn1 = '11111111-1111-4111-8111-111111111111';
const turn2 = '22222222-2222-4222-8222-222222222222';
const turn3 = '33333333-3333-4333-8333-333333333333';
const at = testMeta.now;
const ids = { chatId, organizationId };

const sealed: Sealed = { iv: 'aXY=', data: 'ZGF0YQ==', tag: 'dGFn' };
const reply: Sealed = { iv: 'cmVw', data: 'cmVwbHk=', tag: 'dGFnMg==' };
const trail: Sealed = { iv: 'dHJs', data: 'dHJhaWw=', tag: 'dGFnMw==' };

const created: ChatEvent = { type: 'ChatCreated', data: { ...ids, via: 'message', at } };
/** `count` messages of `characters` characters, the last a reply being written by `turnId` when given. */
const appended = (count: number, characters: number, turnId: string | null = null): ChatEvent => ({
  type: 'ChatMessagesAppended',
  data: { ...ids, messages: sealed, count, characters, turnId, at },
});
const finished = (turnId: string, index: number, outcome: 'resolved' | 'needs_clarification' | 'failed' = 'resolved', characters = 5): ChatEvent => ({
  type: 'ChatReplyFinished',
  data: outcome === 'failed'
    ? { ...ids, turnId, index, outcome, message: null, trail: null, characters: 0, at }
    : { ...ids, turnId, index, outcome, message: reply, trail, characters, at },
});
const replaced: ChatEvent = { type: 'ChatMessagesReplaced', data: { ...ids, messages: sealed, count: 3, characters: 30, at } };
const deleted: ChatEvent = { type: 'ChatDeleted', data: { ...ids, at } };

const start = (first: { count: number; characters: number; turnId: string | null } | null, by = organizationId): ChatCommand => ({
  type: 'StartChat',
  data: { chatId, organizationId: by, via: 'message', first: first && { messages: sealed, ...first } },
});
const appendTurn = (turnId: string, count = 2, characters = 10, by = organizationId): ChatCommand => ({
  type: 'AppendTurn',
  data: { chatId, organizationId: by, turnId, messages: sealed, count, characters },
});
const finish = (turnId: string, outcome: 'resolved' | 'needs_clarification' | 'failed' = 'resolved', characters = 5, by = organizationId): ChatCommand => ({
  type: 'FinishReply',
  data: { chatId, organizationId: by, turnId, outcome, message: reply, trail, characters },
});

t.test('StartChat: a new chat is created, with its first messages when it has any', async (t) => {
  spec(t, []).when(start(null)).then([created]);
  spec(t, []).when(start({ count: 0, characters: 0, turnId: null })).then([created]);
  spec(t, []).when(start({ count: 2, characters: 12, turnId: turn1 })).then([created, appended(2, 12, turn1)]);
  spec(t, [])
    .when({ type: 'StartChat', data: { chatId, organizationId, via: 'create', first: { messages: sealed, count: 3, characters: 9, turnId: null } } })
    .then([{ type: 'ChatCreated', data: { ...ids, via: 'create', at } }, appended(3, 9)]);
});

t.test('StartChat: a retry by the same organization creates nothing; another organization finds no chat', async (t) => {
  spec(t, [created]).when(start({ count: 2, characters: 12, turnId: turn1 })).then([]);
  spec(t, [created, appended(2, 12, turn1)]).when(start(null)).then([]);
  spec(t, [created]).when(start(null, other)).thenThrows(NotFound, chatMessages.notFound);
});

t.test('StartChat: first messages over the bounds are refused', async (t) => {
  spec(t, []).when(start({ count: CHAT_LIMITS.messages, characters: CHAT_LIMITS.characters, turnId: null })).then([created, appended(CHAT_LIMITS.messages, CHAT_LIMITS.characters)]);
  spec(t, []).when(start({ count: CHAT_LIMITS.messages + 1, characters: 10, turnId: null })).thenThrows(Invalid, chatMessages.full);
  spec(t, []).when(start({ count: 1, characters: CHAT_LIMITS.characters + 1, turnId: null })).thenThrows(Invalid, chatMessages.fullText);
});

t.test('AppendTurn: the messages are appended with their turn; the same turn again appends nothing', async (t) => {
  spec(t, [created]).when(appendTurn(turn1)).then([appended(2, 10, turn1)]);
  spec(t, [created, appended(2, 10, turn1)]).when(appendTurn(turn2, 2, 7)).then([appended(2, 7, turn2)]);
  spec(t, [created, appended(2, 10, turn1)]).when(appendTurn(turn1)).then([]);
});

t.test('AppendTurn: a deleted, missing or foreign chat is not found', async (t) => {
  t.equal(chatMessages.notFound, 'Chat not found or you do not have permission to access it.');
  spec(t, []).when(appendTurn(turn1)).thenThrows(NotFound, 'Chat not found or you do not have permission to access it.');
  spec(t, [created, deleted]).when(appendTurn(turn1)).thenThrows(NotFound, 'Chat not found or you do not have permission to access it.');
  spec(t, [created]).when(appendTurn(turn1, 2, 10, other)).thenThrows(NotFound, 'Chat not found or you do not have permission to access it.');
});

t.test('AppendTurn: a chat holds at most 200 messages and its characters bound', async (t) => {
  t.equal(CHAT_LIMITS.messages, 200);
  spec(t, [created, appended(198, 100)]).when(appendTurn(turn1, 2, 10)).then([appended(2, 10, turn1)]);
  spec(t, [created, appended(199, 100)]).when(appendTurn(turn1, 2, 10)).thenThrows(Invalid, chatMessages.full);
  spec(t, [created, appended(200, 100)]).when(appendTurn(turn1, 1, 0)).thenThrows(Invalid, `This chat has reached 200 messages; start a new chat.`);
  spec(t, [created, appended(2, CHAT_LIMITS.characters - 10)]).when(appendTurn(turn1, 2, 10)).then([appended(2, 10, turn1)]);
  spec(t, [created, appended(2, CHAT_LIMITS.characters - 10)]).when(appendTurn(turn1, 2, 11)).thenThrows(Invalid, chatMessages.fullText);
  spec(t, [created, appended(2, CHAT_LIMITS.characters - 10), appended(2, 0, turn1), finished(turn1, 3, 'resolved', 11)])
    .when(appendTurn(turn2, 1, 0))
    .thenThrows(Invalid, chatMessages.fullText);
});

t.test("FinishReply records the reply at its placeholder's index", async (t) => {
  spec(t, [created, appended(2, 10, turn1)]).when(finish(turn1)).then([finished(turn1, 1)]);
  spec(t, [created, appended(2, 10, turn1), appended(2, 10, turn2)]).when(finish(turn2, 'needs_clarification', 7)).then([finished(turn2, 3, 'needs_clarification', 7)]);
  spec(t, [created, appended(2, 10, turn1), appended(2, 10, turn2)]).when(finish(turn1)).then([finished(turn1, 1)]);
});

t.test('FinishReply: a failed reply is recorded as failed, without message, trail or characters', async (t) => {
  spec(t, [created, appended(2, 10, turn1)])
    .when(finish(turn1, 'failed', 40))
    .then([{ type: 'ChatReplyFinished', data: { ...ids, turnId: turn1, index: 1, outcome: 'failed', message: null, trail: null, characters: 0, at } }]);
});

t.test('FinishReply: a reply with no place left records nothing', async (t) => {
  spec(t, [created, appended(2, 10, turn1), replaced]).when(finish(turn1)).then([]);
  spec(t, [created, appended(2, 10, turn1), deleted]).when(finish(turn1)).then([]);
  spec(t, [created, appended(2, 10, turn1)]).when(finish(turn2)).then([]);
  spec(t, [created, appended(2, 10, turn1), finished(turn1, 1)]).when(finish(turn1)).then([]);
  spec(t, [created, appended(2, 10, turn1)]).when(finish(turn1, 'resolved', 5, other)).then([]);
  spec(t, []).when(finish(turn1)).then([]);
});

t.test('a failed reply takes its placeholder out: the pending replies after it move up one', async (t) => {
  const given = [created, appended(2, 10, turn1), appended(2, 10, turn2), appended(2, 10, turn3)];
  spec(t, given).when(finish(turn3)).then([finished(turn3, 5)]);
  spec(t, [...given, finished(turn2, 3, 'failed')]).when(finish(turn3)).then([finished(turn3, 4)]);
  spec(t, [...given, finished(turn2, 3, 'failed')]).when(finish(turn1)).then([finished(turn1, 1)]);
  spec(t, [...given, finished(turn1, 1, 'failed'), finished(turn2, 2, 'failed')]).when(finish(turn3)).then([finished(turn3, 3)]);
  spec(t, [...given, finished(turn2, 3, 'resolved')]).when(finish(turn3)).then([finished(turn3, 5)]);
  spec(t, [...given, finished(turn2, 3, 'failed')]).when(appendTurn('44444444-4444-4444-8444-444444444444')).then([appended(2, 10, '44444444-4444-4444-8444-444444444444')]);
  const state = [...given, finished(turn2, 3, 'failed')].reduce(chatDecider.evolve, chatDecider.initialState);
  t.same(state, { ...ids, createdAt: at, updatedAt: at, deleted: false, count: 5, characters: 30, pending: { [turn1]: 1, [turn3]: 4 } });
  const next = [...given, finished(turn2, 3, 'failed'), appended(2, 10, '44444444-4444-4444-8444-444444444444')].reduce(chatDecider.evolve, chatDecider.initialState);
  t.equal(next?.pending['44444444-4444-4444-8444-444444444444'], 6, 'a later turn is placed after the messages that are left');
});

t.test('ReplaceMessages replaces the messages within the bounds', async (t) => {
  spec(t, [created, appended(2, 10, turn1)])
    .when({ type: 'ReplaceMessages', data: { ...ids, messages: sealed, count: 3, characters: 30 } })
    .then([replaced]);
  spec(t, [created, appended(150, 10)])
    .when({ type: 'ReplaceMessages', data: { ...ids, messages: sealed, count: 0, characters: 0 } })
    .then([{ type: 'ChatMessagesReplaced', data: { ...ids, messages: sealed, count: 0, characters: 0, at } }]);
  spec(t, [created]).when({ type: 'ReplaceMessages', data: { ...ids, messages: sealed, count: 201, characters: 0 } }).thenThrows(Invalid, chatMessages.full);
  spec(t, [created]).when({ type: 'ReplaceMessages', data: { ...ids, messages: sealed, count: 1, characters: 200_001 } }).thenThrows(Invalid, chatMessages.fullText);
  spec(t, [created]).when({ type: 'ReplaceMessages', data: { chatId, organizationId: other, messages: sealed, count: 1, characters: 1 } }).thenThrows(NotFound, chatMessages.notFound);
  spec(t, [created, deleted]).when({ type: 'ReplaceMessages', data: { ...ids, messages: sealed, count: 1, characters: 1 } }).thenThrows(NotFound, chatMessages.notFound);
  const state = [created, appended(2, 10, turn1), replaced].reduce(chatDecider.evolve, chatDecider.initialState);
  t.same(state, { ...ids, createdAt: at, updatedAt: at, deleted: false, count: 3, characters: 30, pending: {} });
});

t.test('DeleteChat deletes once; the chat is then not found', async (t) => {
  spec(t, [created, appended(2, 10, turn1)]).when({ type: 'DeleteChat', data: ids }).then([deleted]);
  spec(t, [created, deleted]).when({ type: 'DeleteChat', data: ids }).thenThrows(NotFound, chatMessages.notFound);
  spec(t, [created]).when({ type: 'DeleteChat', data: { chatId, organizationId: other } }).thenThrows(NotFound, chatMessages.notFound);
  spec(t, []).when({ type: 'DeleteChat', data: ids }).thenThrows(NotFound, chatMessages.notFound);
});

t.test('the stream of a chat is chat-<chatId>', async (t) => {
  t.equal(chatDecider.streamId({ type: 'DeleteChat', data: ids }), `chat-${chatId}`);
  t.equal(chatLedgerDecider.streamId({ type: 'CloseChat', data: { organizationId, chatId } }), `chats-of-${organizationId}`);
});

// --- The ledger ---

const chatIdN = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const opened = (id: string): ChatLedgerEvent => ({ type: 'ChatOpened', data: { organizationId, chatId: id, at } });
const closed = (id: string): ChatLedgerEvent => ({ type: 'ChatClosed', data: { organizationId, chatId: id, at } });
const openChat = (id: string, maxChats = 3) => ({ type: 'OpenChat' as const, data: { organizationId, chatId: id, maxChats } });
const closeChat = (id: string) => ({ type: 'CloseChat' as const, data: { organizationId, chatId: id } });

t.test('OpenChat opens chats up to maxChats', async (t) => {
  ledgerSpec(t, []).when(openChat(chatIdN(1))).then([opened(chatIdN(1))]);
  ledgerSpec(t, [opened(chatIdN(1)), opened(chatIdN(2))]).when(openChat(chatIdN(3))).then([opened(chatIdN(3))]);
  ledgerSpec(t, [opened(chatIdN(1)), opened(chatIdN(2)), opened(chatIdN(3))]).when(openChat(chatIdN(4))).thenThrows(Invalid, chatMessages.tooManyChats(3));
  ledgerSpec(t, [opened(chatIdN(1)), opened(chatIdN(2)), opened(chatIdN(3))])
    .when(openChat(chatIdN(4)))
    .thenThrows(Invalid, 'This organization has reached 3 chats; delete some before starting more.');
  ledgerSpec(t, [opened(chatIdN(1)), opened(chatIdN(2)), opened(chatIdN(3)), closed(chatIdN(2))]).when(openChat(chatIdN(4))).then([opened(chatIdN(4))]);
  ledgerSpec(t, []).when(openChat(chatIdN(1), 0)).thenThrows(Invalid, chatMessages.tooManyChats(0));
});

t.test('OpenChat of a chat already open opens nothing, even at the bound', async (t) => {
  ledgerSpec(t, [opened(chatIdN(1))]).when(openChat(chatIdN(1))).then([]);
  ledgerSpec(t, [opened(chatIdN(1)), opened(chatIdN(2)), opened(chatIdN(3))]).when(openChat(chatIdN(2))).then([]);
});

t.test('CloseChat closes an open chat; an unknown or closed one closes nothing', async (t) => {
  ledgerSpec(t, [opened(chatIdN(1))]).when(closeChat(chatIdN(1))).then([closed(chatIdN(1))]);
  ledgerSpec(t, [opened(chatIdN(1))]).when(closeChat(chatIdN(2))).then([]);
  ledgerSpec(t, [opened(chatIdN(1)), closed(chatIdN(1))]).when(closeChat(chatIdN(1))).then([]);
});

t.test('each fold of the ledger has its own set: the initial state is shared and stays empty', async (t) => {
  const first = [opened(chatIdN(1)), opened(chatIdN(2))].reduce(chatLedgerDecider.evolve, chatLedgerDecider.initialState);
  t.equal(initialLedger.open.size, 0, 'the initial set is not changed by a fold');
  const second = [opened(chatIdN(3))].reduce(chatLedgerDecider.evolve, chatLedgerDecider.initialState);
  t.equal(initialLedger.open.size, 0);
  t.same([...first.open].sort(), [chatIdN(1), chatIdN(2)]);
  t.same([...second.open], [chatIdN(3)]);
  t.not(first.open, second.open);
  t.not(first.open, initialLedger.open);
  const third = [closed(chatIdN(1))].reduce(chatLedgerDecider.evolve, first);
  t.same([...third.open], [chatIdN(2)]);
  t.same([...second.open], [chatIdN(3)], 'another fold is not touched');
});

// --- chatMessagesSchema ---

const problems = (value: unknown): string[] => {
  const result = chatMessagesSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

t.test('chatMessagesSchema reads messages of each role, as strings or parts', async (t) => {
  const messages = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'input_text', text: 'A red dress' }, { type: 'input_image', image_url: 'https://cdn.example.com/a.jpg' }] },
    { role: 'assistant', content: [{ type: 'output_text', text: 'Here you are' }, { type: 'output_slots', slots: [] }, { type: 'output_status', status: 'resolved' }] },
  ];
  t.same(chatMessagesSchema.parse(messages), messages);
  t.same(chatMessagesSchema.parse([]), []);
});

t.test('chatMessagesSchema: what is wrong is named exactly', async (t) => {
  t.same(problems('hello'), ['messages must be an array of at most 200 messages.']);
  t.same(problems(Array.from({ length: 201 }, () => ({ role: 'user', content: 'hi' }))), ['messages must be an array of at most 200 messages.']);
  t.same(problems([{ role: 'user', content: 'hi' }, { role: 'robot', content: 'hi' }]), ['messages[1].role must be one of user, assistant, system.']);
  t.same(problems(['hi']), ['messages[0].role must be one of user, assistant, system.']);
  t.same(problems([{ role: 'user', content: [] }]), [chatMessages.content(0)]);
  t.same(problems([{ role: 'user', content: 'x'.repeat(20_001) }]), ['messages[0].content must be a string of at most 20000 characters or an array of 1 to 20 parts.']);
  t.same(problems([{ role: 'user', content: [{ type: 'output_text', text: 'hi' }] }]), ['messages[0].content[0] must be a part of type input_text, input_image for a user message.']);
  t.same(problems([{ role: 'assistant', content: [{ type: 'input_text', text: 'hi' }] }]), ['messages[0].content[0] must be a part of type output_text, output_slots, output_status for a assistant message.']);
  t.same(problems([{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://example.com/a.jpg' }] }]), [
    'messages[0].content[0].image_url must be an http or https URL of at most 2048 characters.',
  ]);
  t.same(problems([{ role: 'assistant', content: [{ type: 'output_status', status: 'done' }] }]), ['messages[0].content[0].status must be one of resolved, needs_clarification.']);
  t.same(problems([{ role: 'assistant', content: [{ type: 'output_text', text: 7 }] }]), ['messages[0].content[0].text must be a string of at most 20000 characters.']);
  const full = Array.from({ length: 11 }, () => ({ role: 'user', content: 'x'.repeat(20_000) }));
  t.same(problems(full), ['A chat holds at most 200000 characters of text.']);
  t.same(problems(full.slice(1)), []);
  const [slotProblem] = problems([{ role: 'assistant', content: [{ type: 'output_slots', slots: [{ type: 'search', slot: 'top' }] }] }]);
  t.match(slotProblem, /^messages\[0\]\.content\[0\]\.slots\[0\]\.id is not valid: /);
});

t.test('chatMessagesSchema drops a client\'s generating and defaults what a slot leaves out', async (t) => {
  const [message] = chatMessagesSchema.parse([
    {
      role: 'assistant',
      content: [
        { type: 'output_text', text: 'Two ideas' },
        { type: 'output_slots', slots: [{ id: 's1', type: 'search', slot: 'dress', results: [{ itemId: 'i1', displayOrder: 0 }] }, { id: 's2', type: 'outfit_compositions' }] },
        { type: 'output_status', status: 'needs_clarification', generating: true },
      ],
    },
  ]);
  t.same(message, {
    role: 'assistant',
    content: [
      { type: 'output_text', text: 'Two ideas' },
      {
        type: 'output_slots',
        slots: [
          {
            id: 's1',
            type: 'search',
            slot: 'dress',
            query: '',
            filters: { fit: null, pattern: null, material: null, color_family: null, color_rgb: null, family: null, exclude_terms: [], boost_terms: [], minPrice: null, maxPrice: null },
            results: [{ itemId: 'i1', description: '', displayOrder: 0 }],
          },
          { id: 's2', type: 'outfit_compositions', results: [], compositions: [] },
        ],
      },
      { type: 'output_status', status: 'needs_clarification' },
    ],
  });
  t.notOk('generating' in ((message!.content as Array<Record<string, unknown>>)[2] ?? {}), 'generating is dropped');
  const [partial] = chatMessagesSchema.parse([{ role: 'assistant', content: [{ type: 'output_slots', slots: [{ id: 's', type: 'search', slot: 'top', filters: { color_family: 'red', maxPrice: 50 } }] }] }]);
  t.same((partial!.content as any)[0].slots[0].filters, {
    fit: null, pattern: null, material: null, color_family: 'red', color_rgb: null, family: null, exclude_terms: [], boost_terms: [], minPrice: null, maxPrice: 50,
  });
});

// --- agentMessages ---

const entry = (message: ChatMessage, trailEntries: HistoryEntry[] | null = null): TranscriptEntry => ({ message, trail: trailEntries });

t.test('agentMessages: the chat as v2 history, without system messages, the new message last', async (t) => {
  const toolTrail: HistoryEntry[] = [functionCall('c1', 'lookup_products', '{"query":"red dress"}'), functionCallResult('c1', 'lookup_products', '3 products'), assistantMessage('Three red dresses')];
  const transcript = [
    entry({ role: 'system', content: 'You are a stylist.' }),
    entry(userMessage('A red dress')),
    entry(assistantTurn('Three red dresses', [], 'resolved'), toolTrail),
    entry({ role: 'user', content: 'Something cheaper' }),
    entry(assistantTurn('Written by the merchant', [], 'resolved')),
    entry(userMessage('In blue?')),
    entry(generatingTurn()),
  ];
  t.same(agentMessages(transcript, 'And shoes'), [
    { role: 'user', content: 'A red dress' },
    ...toolTrail,
    { role: 'user', content: 'Something cheaper' },
    assistantMessage('Written by the merchant'),
    { role: 'user', content: 'In blue?' },
    { role: 'user', content: 'And shoes' },
  ]);
  t.same(agentMessages([], 'Hello'), [{ role: 'user', content: 'Hello' }]);
  t.same(agentMessages([entry({ role: 'system', content: 'Only system' })], 'Hello'), [{ role: 'user', content: 'Hello' }]);
  const photoOnly = [
    entry(userMessage('A red dress')),
    entry(assistantTurn('Three red dresses', [], 'resolved')),
    entry({ role: 'user', content: [{ type: 'input_image', image_url: 'https://cdn.example.com/me.jpg' }] }),
    entry(assistantTurn('Nice photo', [], 'resolved')),
  ];
  t.same(
    agentMessages(photoOnly, 'Next'),
    [{ role: 'user', content: 'A red dress' }, assistantMessage('Three red dresses'), { role: 'user', content: '(a photo)' }, assistantMessage('Nice photo'), { role: 'user', content: 'Next' }],
    'a message of images only still starts its own turn',
  );
});

t.test('agentMessages: when the chat is longer than a v2 conversation, its oldest turns are left out', async (t) => {
  t.equal(AGENT_LIMITS.messages, 200);
  const transcript = Array.from({ length: 150 }, (_, i) => [entry(userMessage(`question ${i}`)), entry(assistantTurn(`answer ${i}`, [], 'resolved'))]).flat();
  const messages = agentMessages(transcript, 'next');
  t.ok(messages.length <= AGENT_LIMITS.messages);
  t.equal(messages.length, 199, '99 whole turns and the new message');
  t.same(messages[0], { role: 'user', content: 'question 51' }, 'a turn is kept whole, from the newest back');
  t.same(messages.at(-2), assistantMessage('answer 149'));
  t.same(messages.at(-1), { role: 'user', content: 'next' });

  const long = Array.from({ length: 12 }, (_, i) => entry(userMessage(`${i}`.padEnd(AGENT_LIMITS.text + 5, 'x'))));
  const byCharacters = agentMessages(long, 'hi');
  t.equal(byCharacters.length, 10, 'nine texts of 20000 characters fit beside the new message, ten do not');
  t.equal((byCharacters[0] as { content: string }).content.length, AGENT_LIMITS.text, 'each text is cut to the v2 bound');
  t.ok((byCharacters[0] as { content: string }).content.startsWith('3'));
  t.same(byCharacters.at(-1), { role: 'user', content: 'hi' });
});

// --- ReplyBuilder ---

const turnId = '55555555-5555-4555-8555-555555555555';
const shown = (itemId: string, slot: string, name: string) => ({ itemId, metadata: { slot }, product: { name } }) as any;
const done = (history: HistoryEntry[], text = ''): Done => ({ turnId, text, history, usage: { modelCalls: 1, toolCalls: 1, ms: 10 } });

t.test('ReplyBuilder: a lookup becomes a search slot, the text streams, and the reply has three parts', async (t) => {
  const builder = new ReplyBuilder(turnId, 2);
  const feed = (event: AgentEvent) => builder.take(event);
  t.same(feed({ event: 'tool_called', data: { callId: 'c1', name: 'lookup_products', arguments: { query: 'red dress', color: 'red', maxPrice: 80 } } }), []);
  const slotsEvents = feed({ event: 'search_results', data: { kind: 'list', label: 'Red dresses', results: [shown('i1', 'dress', 'Scarlet Midi'), shown('i2', 'dress', 'Ruby Maxi')] } });
  t.same(feed({ event: 'text_delta', data: { delta: 'Here are ' } }), [{ event: 'text_delta', data: { delta: 'Here are ' } }]);
  t.same(feed({ event: 'text_delta', data: { delta: 'two dresses.' } }), [{ event: 'text_delta', data: { delta: 'two dresses.' } }]);
  t.same(feed({ event: 'text_delta', data: { delta: '' } }), []);
  t.same(feed({ event: 'suggestions', data: { suggestions: ['More'] } }), [], 'suggestions have no v1 shape');

  const sent: HistoryEntry[] = [{ role: 'user', content: 'earlier' }, { role: 'user', content: 'A red dress' }];
  const own: HistoryEntry[] = [functionCall('c1', 'lookup_products', '{}'), functionCallResult('c1', 'lookup_products', 'ok'), assistantMessage('Here are two dresses.')];
  const { events, reply: finishedReply } = builder.finish(done([...sent, ...own], 'Here are two dresses.'));
  t.same(events, [{ event: 'status', data: { status: 'resolved' } }]);
  t.equal(finishedReply.status, 'resolved');
  t.same(finishedReply.trail, own, 'the trail is what the turn added to the history it was sent');
  t.equal(finishedReply.characters, 'Here are two dresses.'.length);
  const content = finishedReply.message.content as any[];
  t.equal(finishedReply.message.role, 'assistant');
  t.equal(content.length, 3);
  t.same(content[0], { type: 'output_text', text: 'Here are two dresses.' });
  t.same(content[2], { type: 'output_status', status: 'resolved' });
  const [slot] = content[1].slots;
  t.same(slotsEvents, [{ event: 'slots', data: { slots: content[1].slots } }]);
  t.match(slot, {
    type: 'search',
    slot: 'dress',
    query: 'red dress',
    filters: { color_family: 'red', maxPrice: 80, minPrice: null, boost_terms: [], family: null },
    results: [
      { itemId: 'i1', description: 'Scarlet Midi', displayOrder: 0 },
      { itemId: 'i2', description: 'Ruby Maxi', displayOrder: 1 },
    ],
  });
  t.match(slot.id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-/);
  t.equal(new ReplyBuilder(turnId, 0).take({ event: 'search_results', data: { kind: 'list', label: 'x', results: [] } })[0]!.event, 'slots');
});

t.test('ReplyBuilder: a question asks for clarification, empties the slots and is written into the text', async (t) => {
  const builder = new ReplyBuilder(turnId, 1);
  builder.take({ event: 'search_results', data: { kind: 'list', label: 'Tops', results: [shown('i1', 'top', 'Linen Shirt')] } });
  builder.take({ event: 'text_delta', data: { delta: 'A few tops.' } });
  const written = builder.take({ event: 'question', data: { callId: 'q1', question: 'Which size?', options: [{ label: 'S' }, { label: 'M' }] } });
  t.same(written, [{ event: 'text_delta', data: { delta: '\n\nWhich size?\n- S\n- M' } }]);
  const { events, reply: asked } = builder.finish(done([{ role: 'user', content: 'tops' }, assistantMessage('A few tops.')]));
  t.same(events, [
    { event: 'slots', data: { slots: [] } },
    { event: 'status', data: { status: 'needs_clarification' } },
  ]);
  t.equal(asked.status, 'needs_clarification');
  t.same(asked.message, assistantTurn('A few tops.\n\nWhich size?\n- S\n- M', [], 'needs_clarification'));
  t.same(asked.trail, [assistantMessage('A few tops.')]);

  const alone = new ReplyBuilder(turnId, 0);
  t.same(alone.take({ event: 'question', data: { callId: 'q1', question: 'For what occasion?', options: [{ label: 'Work' }] } }), [{ event: 'text_delta', data: { delta: 'For what occasion?\n- Work' } }]);
  t.same(alone.finish(done([])).events, [{ event: 'status', data: { status: 'needs_clarification' } }], 'no slots to empty, no slots event');
});

t.test('ReplyBuilder: each look becomes an outfit_compositions slot', async (t) => {
  const builder = new ReplyBuilder(turnId, 0);
  const look = (label: string, items: unknown[]) => ({ label, items, customInstructions: '', basics: [] }) as any;
  const events = builder.take({
    event: 'looks',
    data: { looks: [look('Office', [shown('a', 'top', 'Shirt'), shown('b', 'bottom', 'Trousers')]), look('Weekend', [shown('c', 'top', 'Tee')])] },
  });
  const { reply: withLooks } = builder.finish(done([], 'Two looks.'));
  t.same(withLooks.message.content[0], { type: 'output_text', text: 'Two looks.' }, "done's text is kept when nothing streamed");
  const slots = (withLooks.message.content[1] as any).slots;
  t.same(events, [{ event: 'slots', data: { slots } }]);
  t.match(slots, [
    { type: 'outfit_compositions', compositions: ['a', 'b'], results: [{ itemId: 'a', description: 'Shirt', displayOrder: 0 }, { itemId: 'b', description: 'Trousers', displayOrder: 1 }] },
    { type: 'outfit_compositions', compositions: ['c'], results: [{ itemId: 'c', description: 'Tee', displayOrder: 0 }] },
  ]);
  t.equal(slots.length, 2);
  t.not(slots[0].id, slots[1].id, 'each slot has its own id');
  const again = new ReplyBuilder(turnId, 0);
  again.take({ event: 'looks', data: { looks: [look('Office', [shown('a', 'top', 'Shirt')]), look('Weekend', [shown('c', 'top', 'Tee')])] } });
  t.same((again.finish(done([])).reply.message.content[1] as any).slots.map((s: { id: string }) => s.id), slots.map((s: { id: string }) => s.id), 'the same turn names its slots the same way');
});
