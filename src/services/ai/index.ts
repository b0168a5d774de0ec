export { type ChatMessage, type LanguageModel, LanguageModelError, type ToolCall, type ToolSpec } from './model';
export { languageModelFor } from './provider';
