// One agent turn: at most MAX_MODEL_CALLS calls to the model (document 1), each streaming text and
// tool calls; the tools a call asks for run in parallel, their results go back into the
// conversation, and the next call sees them. The turn ends when a call asks for no tool. The loop
// does not know which model runs (the ChatModel port).
//
// What reaches the shopper, in order: text as the model writes it; for each tool call, in the
// order the model made them, `tool_called`, what the tool put on screen, then `tool_output` (tools
// run at the same time; the first call's events go out as they happen, the others' are held until
// the calls before them are done, so one call's events never interleave with another's); reasoning summaries only at thinking levels above the default. A tool that fails
// (bad arguments, an unknown tool, an unusable scope, a cart it cannot read, even a database
// error) fails the call, not the turn: the model is told why and carries on. Only the model
// failing ends the turn with an error.
import { instructions, type TurnContext } from '../../domain/agent/context.js';
import { compactHistory } from '../../domain/agent/history.js';
import { AGENT_LIMITS, assistantMessage, functionCall, functionCallResult, type HistoryEntry } from '../../domain/agent/messages.js';
import type { ChatRequest } from '../../domain/agent/request.js';
import type { AgentEvent, Done } from '../../domain/agent/stream-events.js';
import { isToolName, parseToolArguments, type ToolName, type ToolSpec } from '../../domain/agent/tools.js';
import type { ChatModel } from '../../infra/models/chat.js';
import { toolHandlers, ToolError, type ToolDeps } from './tools/index.js';

export const MAX_MODEL_CALLS = 10;
/** A tool result the model reads is cut here, so the history stays replayable (messages.ts bounds each text). */
const MAX_TOOL_OUTPUT_CHARS = Math.floor(AGENT_LIMITS.text * 0.8);

export interface TurnInput {
  turnId: string;
  request: ChatRequest;
  context: TurnContext;
  tools: ToolSpec[];
}

export interface TurnDeps {
  model: ChatModel;
  /** The tools' dependencies, without `emit` (the loop gives each call its own). */
  tools: Omit<ToolDeps, 'emit' | 'signal'>;
  emit(event: AgentEvent): void;
  signal: AbortSignal;
  /** Unexpected tool failures (a database error): logged, and the model told the tool failed. */
  onToolCrash?(name: string, error: unknown): void;
}

export interface TurnRecord {
  done: Done;
  tools: Array<{ name: string; ok: boolean; ms: number }>;
  modelCalls: number;
}

interface PendingCall {
  callId: string;
  name: string;
  arguments: string;
}

const thinkingShown = (context: TurnContext) => context.thinking === 'medium' || context.thinking === 'high';

const parsedOrRaw = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** The tool's output as the model reads it: JSON text, cut to a bound. */
const outputText = (output: unknown): string => {
  const text = JSON.stringify(output) ?? 'null';
  return text.length <= MAX_TOOL_OUTPUT_CHARS ? text : JSON.stringify({ truncated: true, text: text.slice(0, MAX_TOOL_OUTPUT_CHARS - 40) });
};

export async function runTurn(input: TurnInput, deps: TurnDeps): Promise<TurnRecord> {
  const started = performance.now();
  const { context, request } = input;
  const history: HistoryEntry[] = [...request.messages];
  const system = instructions(context);
  const offered = new Set(input.tools.map((tool) => tool.name));
  const tools: TurnRecord['tools'] = [];
  let text = '';
  let modelCalls = 0;
  let thinkingSummaries = 0;

  while (modelCalls < MAX_MODEL_CALLS) {
    deps.signal.throwIfAborted();
    modelCalls++;
    let written = '';
    let summary = '';
    const calls: PendingCall[] = [];
    for await (const output of deps.model.respond({ context, instructions: system, messages: history, tools: input.tools, thinking: context.thinking, signal: deps.signal })) {
      switch (output.type) {
        case 'text_delta':
          if (!output.delta) break;
          written += output.delta;
          deps.emit({ event: 'text_delta', data: { delta: output.delta } });
          break;
        case 'thinking_delta':
          if (!thinkingShown(context) || !output.delta) break;
          if (!summary && thinkingSummaries > 0) deps.emit({ event: 'thinking_break', data: {} });
          summary += output.delta;
          deps.emit({ event: 'thinking_delta', data: { delta: output.delta } });
          break;
        case 'thinking_done':
          if (!summary) break;
          deps.emit({ event: 'thinking', data: { text: summary } });
          thinkingSummaries++;
          summary = '';
          break;
        case 'tool_call':
          calls.push({ callId: output.callId.slice(0, AGENT_LIMITS.callId) || `call_${history.length}_${calls.length}`, name: output.name.slice(0, AGENT_LIMITS.toolName), arguments: output.arguments.slice(0, AGENT_LIMITS.text) });
          break;
      }
    }
    if (summary) {
      deps.emit({ event: 'thinking', data: { text: summary } });
      thinkingSummaries++;
    }
    if (written) {
      history.push(assistantMessage(written));
      text += text && !/\s$/.test(text) && !/^\s/.test(written) ? `\n\n${written}` : written;
    }
    if (!calls.length) break;

    // The calls run at once; the first in line sends its events as they happen, the ones behind it
    // hold theirs until the calls before them are done, so one call's events never interleave with another's.
    const lines = calls.map((_, i) => new EventLine(i === 0 ? deps.emit : null));
    const outcomes = calls.map((call, i) => runTool(call, offered, deps, lines[i]!));
    for (const [i, call] of calls.entries()) {
      history.push(functionCall(call.callId, call.name, call.arguments));
      lines[i]!.release(deps.emit);
      const outcome = await outcomes[i]!;
      history.push(functionCallResult(call.callId, call.name, outcome.text));
      tools.push({ name: call.name, ok: outcome.ok, ms: outcome.ms });
    }
  }

  const done: Done = {
    turnId: input.turnId,
    text,
    history: compactHistory(history),
    usage: { modelCalls, toolCalls: tools.length, ms: Math.round(performance.now() - started) },
  };
  return { done, tools, modelCalls };
}

/** One tool call's events: sent as they come once it is the call in line, held until then. */
class EventLine {
  readonly #held: AgentEvent[] = [];
  #out: ((event: AgentEvent) => void) | null;

  constructor(out: ((event: AgentEvent) => void) | null) {
    this.#out = out;
  }

  push(event: AgentEvent): void {
    if (this.#out) this.#out(event);
    else this.#held.push(event);
  }

  /** Its turn has come: what it held goes out, and what follows goes straight out. */
  release(out: (event: AgentEvent) => void): void {
    if (this.#out) return;
    for (const event of this.#held.splice(0)) out(event);
    this.#out = out;
  }
}

async function runTool(call: PendingCall, offered: ReadonlySet<string>, deps: TurnDeps, line: EventLine): Promise<{ text: string; ok: boolean; ms: number }> {
  const started = performance.now();
  line.push({ event: 'tool_called', data: { callId: call.callId, name: call.name, arguments: parsedOrRaw(call.arguments) } });
  let output: unknown;
  let error: string | undefined;
  try {
    output = await callTool(call, offered, { ...deps.tools, emit: (event) => line.push(event), signal: deps.signal });
  } catch (thrown) {
    if (deps.signal.aborted) throw thrown;
    if (thrown instanceof ToolError) error = thrown.message;
    else {
      deps.onToolCrash?.(call.name, thrown);
      error = `${call.name} failed unexpectedly; try again or answer without it.`;
    }
    output = { error };
  }
  const ms = Math.round(performance.now() - started);
  const text = outputText(output);
  line.push({ event: 'tool_output', data: { callId: call.callId, name: call.name, ok: error === undefined, output: parsedOrRaw(text), ...(error ? { error } : {}), ms } });
  return { text, ok: error === undefined, ms };
}

async function callTool(call: PendingCall, offered: ReadonlySet<string>, deps: ToolDeps): Promise<unknown> {
  if (!isToolName(call.name) || !offered.has(call.name)) {
    const cartTool = isToolName(call.name) && !offered.has(call.name);
    throw new ToolError(
      cartTool ? `${call.name} is not available: the shopper's cart was not shared with this conversation.` : `There is no tool named ${call.name}. Tools: ${[...offered].join(', ')}.`,
    );
  }
  const name: ToolName = call.name;
  const parsed = parseToolArguments(name, call.arguments);
  if (!parsed.ok) throw new ToolError(parsed.error);
  const handler = toolHandlers[name] as (args: unknown, deps: ToolDeps, call: { callId: string }) => Promise<unknown>;
  return handler(parsed.value, deps, { callId: call.callId });
}
