import type { Logger } from '../../lib/log';
import { type ChatRequest, type ChatResult, type LanguageModel, LanguageModelError } from './model';
import { completionSchema, completionToolCalls, usageOf, wireMessage, wireTools } from './wire';

export interface OpenAiOptions {
  apiKey: string;
  /** E.g. https://api.openai.com/v1 (no trailing slash): `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  timeoutMs: number;
  log?: Logger | undefined;
}

/** A short, safe error code from the provider's error body (`error.code` or `error.type`), never its message. */
async function providerCode(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.json()) as { error?: { code?: unknown; type?: unknown } } | null;
    const code = body?.error?.code ?? body?.error?.type;
    return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

const isTimeout = (err: unknown) => err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');

/**
 * Any OpenAI-compatible chat-completions API (OpenAI, Azure-style gateways, local servers), through
 * fetch with function calling. Logs the provider, model, status, token counts and latency of each
 * call, never the messages.
 */
export function openAiModel(opts: OpenAiOptions): LanguageModel {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const fail = (reason: LanguageModelError['reason'], started: number, status?: number, code?: string) => {
    const err = new LanguageModelError('openai', opts.model, reason, status, code);
    opts.log?.warn('language model call failed', { provider: 'openai', model: opts.model, reason, status, code, ms: Date.now() - started });
    return err;
  };
  return {
    provider: 'openai',
    model: opts.model,
    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const tools = wireTools(req.tools);
      const body = {
        model: opts.model,
        messages: req.messages.map((m) => wireMessage(m, true)),
        ...(tools ? { tools, tool_choice: 'auto' } : {}),
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      };
      const signal = AbortSignal.timeout(opts.timeoutMs);
      let res: Response | undefined;
      let json: unknown;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${opts.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(body),
          signal,
        });
        if (!res.ok) throw fail('status', started, res.status, await providerCode(res));
        json = await res.json();
      } catch (err) {
        if (err instanceof LanguageModelError) throw err;
        // Without a response the provider was not reached; with one, its body was not JSON.
        throw fail(isTimeout(err) ? 'timeout' : res ? 'bad_response' : 'unavailable', started, res?.status);
      }
      const parsed = completionSchema.safeParse(json);
      if (!parsed.success) throw fail('bad_response', started, res?.status);
      const message = parsed.data.choices[0]!.message;
      const result: ChatResult = {
        text: message.content ?? '',
        toolCalls: completionToolCalls(message.tool_calls),
        usage: usageOf(parsed.data.usage),
        model: parsed.data.model || opts.model,
      };
      opts.log?.info('language model call', {
        provider: 'openai',
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
