/**
 * How a tool error travels, on both tool servers (docs/decisions/mcp.md "Tool errors"): `isError: true`
 * and two text blocks, a sentence (`CODE: message`) and the error as JSON,
 * `{"error":{"code","message","details"?}}`; never `structuredContent`. Every tool declares an output
 * schema for its successes, and a 2025-era client (MCP SDK 1.x) checks any `structuredContent` against
 * it, an error's too, and throws on the mismatch, losing the code and the hint. A hint for the caller
 * (such as "call again with confirm: true") is part of the message; what it needs is in `details`.
 */

export interface ToolErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

/** A type alias rather than an interface, so it is assignable to the SDKs' result types (index signatures). */
export type ToolErrorResult = {
  isError: true;
  content: Array<{ type: 'text'; text: string }>;
};

export function toolErrorResult(code: string, message: string, details?: unknown): ToolErrorResult {
  const error: ToolErrorBody = details === undefined ? { code, message } : { code, message, details };
  return {
    isError: true,
    content: [
      { type: 'text', text: `${code}: ${message}` },
      { type: 'text', text: JSON.stringify({ error }) },
    ],
  };
}

/** The error of a tool result as a client reads it (the JSON block); null when the result is no tool error. */
export function readToolError(result: { isError?: boolean; content?: unknown }): ToolErrorBody | null {
  if (result.isError !== true || !Array.isArray(result.content)) return null;
  for (const block of result.content as Array<{ type?: unknown; text?: unknown }>) {
    if (block?.type !== 'text' || typeof block.text !== 'string' || !block.text.startsWith('{"error"')) continue;
    try {
      const { error } = JSON.parse(block.text) as { error?: ToolErrorBody };
      if (error && typeof error.code === 'string' && typeof error.message === 'string') return error;
    } catch {
      // Text that only looks like the block.
    }
  }
  return null;
}
