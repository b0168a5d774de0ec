import { z } from 'zod';
import type { ChatMessage, ToolCall, ToolSpec } from './model';

/**
 * The OpenAI chat-completions wire format, which both adapters speak: OpenAI-compatible endpoints
 * natively, Workers AI for its function-calling models (messages with tool calls and tool results,
 * tools as `{ type: 'function', function }`).
 */

export function wireTools(tools: ToolSpec[] | undefined) {
  if (!tools?.length) return undefined;
  return tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

const wireToolCall = (c: ToolCall) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } });

/** One message on the wire. `nullContent`: an assistant turn that only calls tools has `content: null` (OpenAI). */
export function wireMessage(m: ChatMessage, nullContent: boolean) {
  switch (m.role) {
    case 'tool':
      return { role: 'tool' as const, tool_call_id: m.tool_call_id, name: m.name, content: m.content };
    case 'assistant':
      return m.tool_calls?.length
        ? { role: 'assistant' as const, content: m.content || (nullContent ? null : ''), tool_calls: m.tool_calls.map(wireToolCall) }
        : { role: 'assistant' as const, content: m.content };
    default:
      return { role: m.role, content: m.content };
  }
}

const usageSchema = z
  .object({ prompt_tokens: z.number().int().nonnegative().nullish(), completion_tokens: z.number().int().nonnegative().nullish() })
  .nullish();

/** A chat-completions answer, read leniently: only what the interface returns is required. */
export const completionSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: z.unknown() }) }))
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: usageSchema,
});

export const usageOf = (u: z.infer<typeof usageSchema>) => ({
  prompt_tokens: u?.prompt_tokens ?? 0,
  completion_tokens: u?.completion_tokens ?? 0,
});

/** Tool-call arguments as JSON text, whichever form the provider used (text, or an object). */
export function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined || args === null) return '{}';
  return JSON.stringify(args);
}

/** A tool call id, made up when the provider gave none (some Workers AI models do not). */
export const toolCallId = (id: string | null | undefined, i: number) => id || `call_${i}_${crypto.randomUUID().slice(0, 8)}`;

export function completionToolCalls(calls: z.infer<typeof completionSchema>['choices'][number]['message']['tool_calls']): ToolCall[] {
  return (calls ?? []).map((c, i) => ({ id: toolCallId(c.id, i), name: c.function.name, arguments: argumentsText(c.function.arguments) }));
}
