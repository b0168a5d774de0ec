import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { type AppBindings, getSettings, type Settings } from '../../src/env';

/** The OpenAI-compatible endpoint the tests point the adapter at; nothing else may be fetched. */
export const FAKE_LLM_BASE = 'https://llm.example.test/v1';
export const FAKE_LLM_KEY = 'sk-test-0123456789';

/** Settings as the entry point parses them, with the given overrides (e.g. a key, a provider). */
export function settingsWith(overrides: Partial<Settings> = {}, bindings: AppBindings = env as AppBindings): Settings {
  return { ...getSettings(bindings), ...overrides };
}

/** Settings that choose the OpenAI adapter against the intercepted endpoint. */
export const openAiSettings = (overrides: Partial<Settings> = {}) =>
  settingsWith({
    AI_PROVIDER: 'openai',
    OPENAI_API_KEY: FAKE_LLM_KEY,
    OPENAI_BASE_URL: FAKE_LLM_BASE,
    AI_MODEL: 'test-model',
    ...overrides,
  });

export interface SeenCall {
  url: string;
  headers: Headers;
  body: Record<string, any>;
}

type Answer = Response | Record<string, unknown>;

/**
 * Intercepts outbound HTTP: `POST {FAKE_LLM_BASE}/chat/completions` gets the next of `answers` (a
 * Response, or a JSON body answered 200); any other URL, or a call beyond the answers, fails the
 * call and is listed in `unexpected`.
 */
export function interceptModel(answers: Array<Answer | ((call: SeenCall) => Answer | Promise<Answer>)>) {
  const calls: SeenCall[] = [];
  const unexpected: string[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    const next = answers[calls.length];
    if (req.method !== 'POST' || req.url !== `${FAKE_LLM_BASE}/chat/completions` || !next) {
      unexpected.push(`${req.method} ${req.url}`);
      throw new Error(`unexpected outbound request to ${req.url}`);
    }
    const call: SeenCall = { url: req.url, headers: req.headers, body: (await req.json()) as Record<string, any> };
    calls.push(call);
    const a = typeof next === 'function' ? await next(call) : next;
    return a instanceof Response ? a : Response.json(a);
  });
  return { spy, calls, unexpected };
}

/** A chat-completions answer with text, tool calls and usage, as OpenAI writes it. */
export function completion(opts: {
  text?: string | null;
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> | string }>;
  usage?: { prompt_tokens: number; completion_tokens: number };
  model?: string;
}) {
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: 'chat.completion',
    model: opts.model ?? 'test-model',
    choices: [
      {
        index: 0,
        finish_reason: opts.toolCalls?.length ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: opts.text ?? null,
          ...(opts.toolCalls?.length
            ? {
                tool_calls: opts.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
                })),
              }
            : {}),
        },
      },
    ],
    usage: opts.usage
      ? { ...opts.usage, total_tokens: opts.usage.prompt_tokens + opts.usage.completion_tokens }
      : { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}
