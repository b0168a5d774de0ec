/**
 * The one small interface every use of a language model goes through (the help center's assistant,
 * the business assistant). Adapters: Workers AI (an `AI` binding) and any OpenAI-compatible HTTP API,
 * chosen by configuration (`languageModelFor`, services/ai/provider.ts). Without either, there is no
 * model and each feature answers with its documented fallback.
 */

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them: a JSON object in text (parse and validate before use). */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] | undefined }
  | { role: 'tool'; content: string; tool_call_id: string; name: string };

/** A tool the model may call: its JSON Schema parameters (an object schema). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[] | undefined;
  maxTokens?: number | undefined;
  temperature?: number | undefined;
}

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  usage: { prompt_tokens: number; completion_tokens: number };
  model: string;
}

export interface LanguageModel {
  /** `workers-ai` or `openai` (any OpenAI-compatible endpoint). */
  readonly provider: string;
  readonly model: string;
  chat(req: ChatRequest): Promise<ChatResult>;
}

/**
 * A model call that failed: the provider answered an error status, timed out, could not be reached
 * or answered something unreadable. The message names the provider, model and cause only (never the
 * prompt, never the provider's error text, which can echo a key); uncaught, it is a generic 500.
 * Features catch it to answer their documented fallback.
 */
export class LanguageModelError extends Error {
  override name = 'LanguageModelError';
  constructor(
    readonly provider: string,
    readonly model: string,
    readonly reason: 'status' | 'timeout' | 'unavailable' | 'bad_response',
    /** The HTTP status the provider answered, for `status`. */
    readonly status?: number,
    /** The provider's short error code or type when it gave one (e.g. `invalid_api_key`), never its message. */
    readonly providerCode?: string,
  ) {
    super(
      `language model call failed (${provider} ${model}): ${
        reason === 'status'
          ? `HTTP ${status}${providerCode ? ` ${providerCode}` : ''}`
          : reason === 'timeout'
            ? 'timed out'
            : reason === 'unavailable'
              ? 'provider unreachable or refused the call'
              : 'unreadable answer'
      }`,
    );
  }
}
