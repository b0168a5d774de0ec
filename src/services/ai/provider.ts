import type { AppBindings, Settings } from '../../env';
import type { Logger } from '../../lib/log';
import type { LanguageModel } from './model';
import { openAiModel } from './openai';
import { workersAiModel } from './workers-ai';

export type Provider = 'openai' | 'workers-ai';

/** The model used when AI_MODEL is empty. */
export const DEFAULT_MODELS: Record<Provider, string> = {
  openai: 'gpt-4o-mini',
  'workers-ai': '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
};
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Which provider the settings choose: AI_PROVIDER, else openai with a key, else workers-ai with a binding, else none. */
export function chosenProvider(env: AppBindings, settings: Settings): Provider | null {
  if (settings.AI_PROVIDER) return settings.AI_PROVIDER;
  if (settings.OPENAI_API_KEY?.trim()) return 'openai';
  return env.AI ? 'workers-ai' : null;
}

/**
 * The language model the operator configured, or null when there is none (every feature then answers
 * its documented fallback). A provider named in AI_PROVIDER without its credential (the key, or the
 * `AI` binding) is no model either, with a warning in the log.
 */
export function languageModelFor(env: AppBindings, settings: Settings, log?: Logger): LanguageModel | null {
  const provider = chosenProvider(env, settings);
  if (!provider) return null;
  const model = settings.AI_MODEL?.trim() || DEFAULT_MODELS[provider];
  if (provider === 'openai') {
    const apiKey = settings.OPENAI_API_KEY?.trim();
    if (!apiKey) {
      log?.warn('AI_PROVIDER is openai but the OPENAI_API_KEY secret is not set: no language model');
      return null;
    }
    const baseUrl = settings.OPENAI_BASE_URL || DEFAULT_OPENAI_BASE_URL;
    return openAiModel({ apiKey, baseUrl, model, timeoutMs: settings.AI_TIMEOUT_MS, log });
  }
  if (!env.AI) {
    log?.warn('AI_PROVIDER is workers-ai but there is no AI binding: no language model');
    return null;
  }
  return workersAiModel(env.AI, { model, timeoutMs: settings.AI_TIMEOUT_MS, log });
}
