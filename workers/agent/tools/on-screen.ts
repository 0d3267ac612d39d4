// The tools that only put something on the shopper's screen: a multiple-choice question and
// follow-up chips. The shopper's answer to a question comes back as their next message.
import type { ToolHandler } from './context.js';

export const askQuestion: ToolHandler<'ask_question'> = async (args, deps, call) => {
  const options = [...new Set(args.options)];
  deps.emit({ event: 'question', data: { callId: call.callId, question: args.question, options: options.map((label) => ({ label })) } });
  return { asked: true, question: args.question, options, note: 'The shopper\'s choice will come as their next message: end this turn now.' };
};

export const suggestReplies: ToolHandler<'suggest_replies'> = async (args, deps) => {
  const suggestions = [...new Set(args.suggestions)];
  deps.emit({ event: 'suggestions', data: { suggestions } });
  return { offered: suggestions };
};
