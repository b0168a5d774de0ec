import { z } from 'zod';
import type { AppBindings } from '../../env';
import type { Logger } from '../../lib/log';
import { type ChatRequest, type ChatResult, type LanguageModel, LanguageModelError, type ToolCall } from './model';
import { argumentsText, completionSchema, completionToolCalls, toolCallId, usageOf, wireMessage, wireTools } from './wire';

export type WorkersAiBinding = NonNullable<AppBindings['AI']>;

export interface WorkersAiOptions {
  model: string;
  timeoutMs: number;
  log?: Logger | undefined;
}

/**
 * Workers AI's text-generation answer: `response` and `tool_calls` (either `{ name, arguments }` or
 * the OpenAI form `{ id, type, function: { name, arguments } }`) with `usage`. Models served in the
 * OpenAI format answer `choices` instead; both are read.
 */
const nativeSchema = z.object({
  response: z.unknown().optional(),
  tool_calls: z
    .array(
      z.union([
        z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: z.unknown() }) }),
        z.object({ id: z.string().nullish(), name: z.string(), arguments: z.unknown() }),
      ]),
    )
    .nullish(),
  usage: z
    .object({ prompt_tokens: z.number().int().nonnegative().nullish(), completion_tokens: z.number().int().nonnegative().nullish() })
    .nullish(),
});

function nativeToolCalls(calls: z.infer<typeof nativeSchema>['tool_calls']): ToolCall[] {
  return (calls ?? []).map((c, i) => {
    const fn = 'function' in c ? c.function : c;
    return { id: toolCallId(c.id, i), name: fn.name, arguments: argumentsText(fn.arguments) };
  });
}

/** Maps whatever `AI.run` answered onto the interface, or null when it is neither known shape. */
export function readWorkersAiOutput(out: unknown, model: string): (Omit<ChatResult, 'model'> & { model: string }) | null {
  const openAi = completionSchema.safeParse(out);
  if (openAi.success) {
    const m = openAi.data.choices[0]!.message;
    return {
      text: m.content ?? '',
      toolCalls: completionToolCalls(m.tool_calls),
      usage: usageOf(openAi.data.usage),
      model: openAi.data.model || model,
    };
  }
  const native = nativeSchema.safeParse(out);
  if (!native.success || out === null || typeof out !== 'object') return null;
  const r = native.data.response;
  return {
    // A model in JSON mode can answer an object; the interface carries text.
    text: typeof r === 'string' ? r : r === undefined || r === null ? '' : JSON.stringify(r),
    toolCalls: nativeToolCalls(native.data.tool_calls),
    usage: usageOf(native.data.usage),
    model,
  };
}

class Timeout extends Error {}

/**
 * Workers AI through the operator's `AI` binding: `env.AI.run(model, { messages, tools })`. The binding
 * takes no abort signal, so the timeout abandons the wait (the call itself may still finish).
 */
export function workersAiModel(ai: WorkersAiBinding, opts: WorkersAiOptions): LanguageModel {
  const fail = (reason: LanguageModelError['reason'], started: number, code?: string) => {
    opts.log?.warn('language model call failed', { provider: 'workers-ai', model: opts.model, reason, code, ms: Date.now() - started });
    return new LanguageModelError('workers-ai', opts.model, reason, undefined, code);
  };
  return {
    provider: 'workers-ai',
    model: opts.model,
    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const tools = wireTools(req.tools);
      const inputs = {
        messages: req.messages.map((m) => wireMessage(m, false)),
        ...(tools ? { tools } : {}),
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      let out: unknown;
      try {
        out = await Promise.race([
          ai.run(opts.model, inputs),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Timeout()), opts.timeoutMs);
          }),
        ]);
      } catch (err) {
        // Workers AI errors read "AiError: 5007: …"; only the numeric code is kept.
        const code = err instanceof Error ? /\b(\d{4})\b/.exec(err.message)?.[1] : undefined;
        throw fail(err instanceof Timeout ? 'timeout' : 'unavailable', started, code);
      } finally {
        clearTimeout(timer);
      }
      const result = readWorkersAiOutput(out, opts.model);
      if (!result) throw fail('bad_response', started);
      opts.log?.info('language model call', {
        provider: 'workers-ai',
        model: result.model,
        prompt_tokens: result.usage.prompt_tokens,
        completion_tokens: result.usage.completion_tokens,
        tool_calls: result.toolCalls.length,
        ms: Date.now() - started,
      });
      return result;
    },
  };
}
