// inside: services/ai
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppBindings } from '../../src/env';
import { createLogger } from '../../src/lib/log';
import { LanguageModelError, languageModelFor } from '../../src/services/ai';
import { openAiModel } from '../../src/services/ai/openai';
import { DEFAULT_MODELS } from '../../src/services/ai/provider';
import { workersAiModel } from '../../src/services/ai/workers-ai';
import { completion, FAKE_LLM_BASE, FAKE_LLM_KEY, interceptModel, openAiSettings, settingsWith } from '../helpers/fake-model';
import { captureConsole } from '../helpers/queues';

afterEach(() => {
  vi.restoreAllMocks();
});

const TOOLS = [
  {
    name: 'labor_costs',
    description: 'Labor costs of a week.',
    parameters: { type: 'object', properties: { week: { type: 'string' } }, required: [] },
  },
];
const SECRET_PROMPT = 'prompt-text-that-must-never-be-logged';

/** A Workers AI binding stand-in (an external service, not our storage) that records its calls. */
function fakeAi(answer: (model: string, inputs: Record<string, any>) => unknown) {
  const calls: Array<{ model: string; inputs: Record<string, any> }> = [];
  return {
    calls,
    run: async (model: string, inputs: Record<string, unknown>) => {
      calls.push({ model, inputs: inputs as Record<string, any> });
      return answer(model, inputs as Record<string, any>);
    },
  };
}
const bindingsWith = (extra: Partial<AppBindings>): AppBindings => ({ ...(env as AppBindings), ...extra });
const adapter = (timeoutMs = 5000) => openAiModel({ apiKey: FAKE_LLM_KEY, baseUrl: FAKE_LLM_BASE, model: 'test-model', timeoutMs });

describe('OpenAI-compatible adapter', () => {
  it('sends the key, the model, the messages and the tools as OpenAI function tools', async () => {
    const m = interceptModel([completion({ text: 'Hello.', usage: { prompt_tokens: 12, completion_tokens: 3 } })]);
    const r = await adapter().chat({
      messages: [
        { role: 'system', content: 'You help.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'labor_costs', arguments: '{}' }] },
        { role: 'tool', content: '{"total":1}', tool_call_id: 'call_1', name: 'labor_costs' },
      ],
      tools: TOOLS,
      maxTokens: 300,
      temperature: 0.2,
    });
    expect(m.unexpected).toEqual([]);
    expect(m.calls).toHaveLength(1);
    const call = m.calls[0]!;
    expect(call.url).toBe(`${FAKE_LLM_BASE}/chat/completions`);
    expect(call.headers.get('authorization')).toBe(`Bearer ${FAKE_LLM_KEY}`);
    expect(call.headers.get('content-type')).toBe('application/json');
    expect(call.body.model).toBe('test-model');
    expect(call.body.max_tokens).toBe(300);
    expect(call.body.temperature).toBe(0.2);
    expect(call.body.tool_choice).toBe('auto');
    expect(call.body.tools).toEqual([{ type: 'function', function: TOOLS[0] }]);
    expect(call.body.messages).toEqual([
      { role: 'system', content: 'You help.' },
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'labor_costs', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'labor_costs', content: '{"total":1}' },
    ]);
    expect(r).toEqual({ text: 'Hello.', toolCalls: [], usage: { prompt_tokens: 12, completion_tokens: 3 }, model: 'test-model' });
  });

  it('sends no tools field when there are none', async () => {
    const m = interceptModel([completion({ text: 'ok' })]);
    await adapter().chat({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(m.calls[0]!.body).not.toHaveProperty('tools');
    expect(m.calls[0]!.body).not.toHaveProperty('tool_choice');
  });

  it('parses tool calls (arguments kept as the JSON text the model wrote) and maps usage', async () => {
    interceptModel([
      completion({
        toolCalls: [
          { id: 'call_a', name: 'labor_costs', arguments: { week: '2026-12-01' } },
          { id: 'call_b', name: 'going_rate', arguments: '{"shiftrole_id": 2}' },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 18 },
        model: 'gpt-4o-mini-2024-07-18',
      }),
    ]);
    const r = await adapter().chat({ messages: [{ role: 'user', content: 'Costs?' }], tools: TOOLS });
    expect(r.text).toBe('');
    expect(r.toolCalls).toEqual([
      { id: 'call_a', name: 'labor_costs', arguments: '{"week":"2026-12-01"}' },
      { id: 'call_b', name: 'going_rate', arguments: '{"shiftrole_id": 2}' },
    ]);
    expect(r.usage).toEqual({ prompt_tokens: 120, completion_tokens: 18 });
    expect(r.model).toBe('gpt-4o-mini-2024-07-18');
  });

  it('counts missing usage as zero tokens', async () => {
    interceptModel([{ choices: [{ message: { role: 'assistant', content: 'ok' } }] }]);
    const r = await adapter().chat({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(r.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0 });
    expect(r.model).toBe('test-model');
  });

  it('turns an error status into a LanguageModelError naming the status and code, never the provider message or the prompt', async () => {
    const lines = captureConsole();
    interceptModel([
      Response.json(
        { error: { message: `Incorrect API key provided: ${FAKE_LLM_KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } },
        { status: 401 },
      ),
    ]);
    const model = openAiModel({
      apiKey: FAKE_LLM_KEY,
      baseUrl: FAKE_LLM_BASE,
      model: 'test-model',
      timeoutMs: 5000,
      log: createLogger({}, 'info'),
    });
    const err = await model.chat({ messages: [{ role: 'user', content: SECRET_PROMPT }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LanguageModelError);
    const e = err as LanguageModelError;
    expect(e.reason).toBe('status');
    expect(e.status).toBe(401);
    expect(e.providerCode).toBe('invalid_api_key');
    expect(e.message).toBe('language model call failed (openai test-model): HTTP 401 invalid_api_key');
    const logged = lines.join('\n');
    expect(logged).toContain('language model call failed');
    expect(logged).not.toContain(FAKE_LLM_KEY);
    expect(logged).not.toContain(SECRET_PROMPT);
  });

  it('answers 5xx, unreadable bodies and unreachable endpoints with LanguageModelError', async () => {
    interceptModel([
      new Response('upstream exploded', { status: 503 }),
      new Response('<html>not json</html>', { status: 200 }),
      { choices: [] },
    ]);
    const reasons = [];
    for (let i = 0; i < 3; i++) {
      const e = (await adapter()
        .chat({ messages: [{ role: 'user', content: 'Hi' }] })
        .catch((x: unknown) => x)) as LanguageModelError;
      expect(e).toBeInstanceOf(LanguageModelError);
      reasons.push([e.reason, e.status]);
    }
    expect(reasons).toEqual([
      ['status', 503],
      ['bad_response', 200],
      ['bad_response', 200],
    ]);
    vi.restoreAllMocks();
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Network connection lost.'));
    const e = (await adapter()
      .chat({ messages: [{ role: 'user', content: 'Hi' }] })
      .catch((x: unknown) => x)) as LanguageModelError;
    expect(e.reason).toBe('unavailable');
  });

  it('gives up after the timeout', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const started = Date.now();
    const e = (await adapter(1000)
      .chat({ messages: [{ role: 'user', content: 'Hi' }] })
      .catch((x: unknown) => x)) as LanguageModelError;
    expect(e).toBeInstanceOf(LanguageModelError);
    expect(e.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('logs the call with tokens but without the prompt or the answer', async () => {
    const lines = captureConsole();
    interceptModel([completion({ text: 'answer-text-not-logged', usage: { prompt_tokens: 7, completion_tokens: 2 } })]);
    const model = openAiModel({ apiKey: FAKE_LLM_KEY, baseUrl: FAKE_LLM_BASE, model: 'test-model', timeoutMs: 5000, log: createLogger() });
    await model.chat({ messages: [{ role: 'user', content: SECRET_PROMPT }] });
    const logged = lines.join('\n');
    expect(logged).toContain('"prompt_tokens":7');
    expect(logged).not.toContain(SECRET_PROMPT);
    expect(logged).not.toContain('answer-text-not-logged');
    expect(logged).not.toContain(FAKE_LLM_KEY);
  });
});

describe('Workers AI adapter', () => {
  it('calls AI.run with the model, the messages and the tools, and maps text and usage', async () => {
    const ai = fakeAi(() => ({ response: 'Hello from Workers AI.', usage: { prompt_tokens: 30, completion_tokens: 6, total_tokens: 36 } }));
    const model = workersAiModel(ai, { model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast', timeoutMs: 5000 });
    const r = await model.chat({
      messages: [
        { role: 'system', content: 'You help.' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'labor_costs', arguments: '{}' }] },
        { role: 'tool', content: '{}', tool_call_id: 'c1', name: 'labor_costs' },
      ],
      tools: TOOLS,
      maxTokens: 200,
    });
    expect(ai.calls).toHaveLength(1);
    expect(ai.calls[0]!.model).toBe('@cf/meta/llama-3.3-70b-instruct-fp8-fast');
    expect(ai.calls[0]!.inputs).toEqual({
      messages: [
        { role: 'system', content: 'You help.' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'labor_costs', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', name: 'labor_costs', content: '{}' },
      ],
      tools: [{ type: 'function', function: TOOLS[0] }],
      max_tokens: 200,
    });
    expect(r).toEqual({
      text: 'Hello from Workers AI.',
      toolCalls: [],
      usage: { prompt_tokens: 30, completion_tokens: 6 },
      model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
    });
  });

  it('reads tool calls in the native form (arguments as an object, no id) and in the OpenAI form', async () => {
    const ai = fakeAi(() => ({
      response: null,
      tool_calls: [
        { name: 'labor_costs', arguments: { week: '2026-12-01' } },
        { id: 'call_x', type: 'function', function: { name: 'going_rate', arguments: '{"shiftrole_id":1}' } },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 9 },
    }));
    const r = await workersAiModel(ai, { model: 'm', timeoutMs: 5000 }).chat({ messages: [{ role: 'user', content: 'x' }], tools: TOOLS });
    expect(r.text).toBe('');
    expect(r.toolCalls).toHaveLength(2);
    expect(r.toolCalls[0]).toMatchObject({ name: 'labor_costs', arguments: '{"week":"2026-12-01"}' });
    expect(r.toolCalls[0]!.id).toMatch(/^call_0_/);
    expect(r.toolCalls[1]).toEqual({ id: 'call_x', name: 'going_rate', arguments: '{"shiftrole_id":1}' });
    expect(r.usage).toEqual({ prompt_tokens: 50, completion_tokens: 9 });
  });

  it('reads models that answer in the chat-completions form', async () => {
    const ai = fakeAi(() =>
      completion({ text: 'From choices.', usage: { prompt_tokens: 4, completion_tokens: 2 }, model: '@cf/openai/gpt-oss-120b' }),
    );
    const r = await workersAiModel(ai, { model: '@cf/openai/gpt-oss-120b', timeoutMs: 5000 }).chat({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(r).toEqual({
      text: 'From choices.',
      toolCalls: [],
      usage: { prompt_tokens: 4, completion_tokens: 2 },
      model: '@cf/openai/gpt-oss-120b',
    });
  });

  it('turns a binding error, a timeout and an unreadable answer into LanguageModelError', async () => {
    const failing = fakeAi(() => {
      throw new Error('AiError: 5007: No such model @cf/nope or task');
    });
    const e1 = (await workersAiModel(failing, { model: '@cf/nope', timeoutMs: 5000 })
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((x: unknown) => x)) as LanguageModelError;
    expect(e1).toBeInstanceOf(LanguageModelError);
    expect([e1.reason, e1.providerCode]).toEqual(['unavailable', '5007']);

    const hanging = fakeAi(() => new Promise(() => undefined));
    const e2 = (await workersAiModel(hanging, { model: 'm', timeoutMs: 1000 })
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((x: unknown) => x)) as LanguageModelError;
    expect(e2.reason).toBe('timeout');

    const odd = fakeAi(() => 'a bare string');
    const e3 = (await workersAiModel(odd, { model: 'm', timeoutMs: 5000 })
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((x: unknown) => x)) as LanguageModelError;
    expect(e3.reason).toBe('bad_response');
  });
});

describe('languageModelFor: which provider the settings choose', () => {
  const ai = fakeAi(() => ({ response: 'ok' }));

  it('has no model by default (no key, no binding): the local configuration', () => {
    expect(languageModelFor(env as AppBindings, settingsWith())).toBeNull();
  });

  it('picks OpenAI when the key is set, with its default model, and Workers AI when only the binding exists', () => {
    const o = languageModelFor(bindingsWith({ AI: ai }), settingsWith({ OPENAI_API_KEY: FAKE_LLM_KEY }));
    expect([o?.provider, o?.model]).toEqual(['openai', DEFAULT_MODELS.openai]);
    const w = languageModelFor(bindingsWith({ AI: ai }), settingsWith());
    expect([w?.provider, w?.model]).toEqual(['workers-ai', '@cf/meta/llama-3.3-70b-instruct-fp8-fast']);
  });

  it('an empty or blank key counts as none', () => {
    expect(languageModelFor(env as AppBindings, settingsWith({ OPENAI_API_KEY: '  ' }))).toBeNull();
  });

  it('follows AI_PROVIDER over the automatic choice, with AI_MODEL', () => {
    const w = languageModelFor(
      bindingsWith({ AI: ai }),
      settingsWith({ AI_PROVIDER: 'workers-ai', OPENAI_API_KEY: FAKE_LLM_KEY, AI_MODEL: '@cf/qwen/qwen3-30b' }),
    );
    expect([w?.provider, w?.model]).toEqual(['workers-ai', '@cf/qwen/qwen3-30b']);
    const o = languageModelFor(bindingsWith({ AI: ai }), openAiSettings());
    expect([o?.provider, o?.model]).toEqual(['openai', 'test-model']);
  });

  it('a provider named without its credential is no model, with a warning', () => {
    const lines = captureConsole();
    const log = createLogger();
    expect(languageModelFor(env as AppBindings, settingsWith({ AI_PROVIDER: 'openai' }), log)).toBeNull();
    expect(languageModelFor(env as AppBindings, settingsWith({ AI_PROVIDER: 'workers-ai', OPENAI_API_KEY: FAKE_LLM_KEY }), log)).toBeNull();
    expect(lines.filter((l) => l.includes('no language model'))).toHaveLength(2);
  });

  it('sends to OPENAI_BASE_URL (any OpenAI-compatible endpoint), and to api.openai.com without it', async () => {
    const m = interceptModel([completion({ text: 'ok' })]);
    await languageModelFor(env as AppBindings, openAiSettings({ OPENAI_BASE_URL: `${FAKE_LLM_BASE}/` }))!.chat({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(m.calls.map((c) => c.url)).toEqual([`${FAKE_LLM_BASE}/chat/completions`]);
    vi.restoreAllMocks();
    const urls: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      urls.push(new Request(input as RequestInfo).url);
      return Response.json(completion({ text: 'ok' }));
    });
    await languageModelFor(env as AppBindings, settingsWith({ OPENAI_API_KEY: FAKE_LLM_KEY }))!.chat({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(urls).toEqual(['https://api.openai.com/v1/chat/completions']);
  });

  it('refuses an invalid AI_PROVIDER or a non-http OPENAI_BASE_URL at the entry point', async () => {
    const { settingsSchema } = await import('../../src/env');
    expect(settingsSchema.safeParse({ AI_PROVIDER: 'anthropic' }).success).toBe(false);
    expect(settingsSchema.safeParse({ OPENAI_BASE_URL: 'javascript:alert(1)' }).success).toBe(false);
    expect(settingsSchema.safeParse({ OPENAI_BASE_URL: 'http://localhost:11434/v1', AI_PROVIDER: '' }).success).toBe(true);
  });
});
