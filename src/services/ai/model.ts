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
