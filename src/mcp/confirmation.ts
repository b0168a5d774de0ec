import { acceptedContent, type CallToolResult, type InputRequiredResult, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AppError } from '../lib/errors';
import { toolErrorResult } from '@shiftmarket/tool-specs';

/**
 * Confirmation of write tools (spec 4.9: "confirmation on by default"). Before a write tool runs, the
 * user sees what it will do (the tool's `describeAction`) and says yes:
 * - a client of the 2026-07-28 revision that declared form elicitation gets an input-required result
 *   with a one-field form (`confirm`); its retry carries the user's answer;
 * - any other client (2025-11-25 clients included: the stateless endpoint cannot send them a
 *   server-to-client request) gets a tool error `MCP-CONFIRM-REQ-ERR` carrying the summary, and the
 *   agent calls again with `confirm: true` once the user agreed.
 * The user can switch this off (`mcp_user_settings.confirm_writes`); the payment tools are never
 * affected by that switch: confirm_payment_for_shift's confirmation is the step-up page, and
 * approve_timesheet asks on every call (its spec's `confirmation: 'always'`).
 * A tool may answer its summary with a preview (the data behind it: a payment's amount): it travels
 * in the request's `details.preview` beside `details.summary`.
 */

/** What a tool shows before it runs: a sentence, or a sentence and the data behind it. */
export type ActionSummary = string | { summary: string; preview: Record<string, unknown> };

/** The input field write tools gain; removed before the tool's own `run` sees the arguments. */
export const CONFIRM_FIELD = 'confirm';
export const confirmField = z
  .boolean()
  .optional()
  .describe('Set to true only after the user has seen and approved the summary this tool returned for the same arguments.');

const ELICIT_KEY = 'confirm';
const confirmationForm = z.object({ confirm: z.boolean().describe('Go ahead') });

export type ConfirmOutcome =
  | { kind: 'proceed' }
  /** Ask first: answer this (an input-required result, or the summary asking for confirm: true). */
  | { kind: 'ask'; result: InputRequiredResult | CallToolResult }
  /** The user said no in the form: nothing runs. */
  | { kind: 'declined'; error: AppError };

export interface ConfirmInput {
  /** `confirm` as the caller sent it. */
  confirm: boolean | undefined;
  /** The user's setting (default on). */
  required: boolean;
  /** The request is of the 2026-07-28 revision and its client declared form elicitation. */
  canElicitForm: boolean;
  /** `ctx.mcpReq.inputResponses` of a retried 2026-07-28 request. */
  inputResponses: Record<string, unknown> | undefined;
  summary: () => Promise<ActionSummary>;
}

/**
 * A tool error result carrying one of our codes (the same shape the wrapper gives service errors):
 * the sentence and the JSON block, no `structuredContent` (`@shiftmarket/tool-specs` tool-errors.ts).
 */
export function toolError(code: string, message: string, details?: Record<string, unknown>): CallToolResult {
  return toolErrorResult(code, message, details);
}

export async function decideConfirmation(input: ConfirmInput): Promise<ConfirmOutcome> {
  if (!input.required || input.confirm === true) return { kind: 'proceed' };
  if (input.canElicitForm) {
    const answered = inputResponse(input.inputResponses, ELICIT_KEY);
    if (answered.kind === 'elicit') {
      const content = acceptedContent(input.inputResponses, ELICIT_KEY, confirmationForm);
      if (answered.action === 'accept' && content?.confirm === true) return { kind: 'proceed' };
      return { kind: 'declined', error: new AppError('MCP-CONFIRM-DECLINED-ERR', 'The user declined; nothing was done.') };
    }
    const { summary } = summaryOf(await input.summary());
    return {
      kind: 'ask',
      result: inputRequired({
        inputRequests: { [ELICIT_KEY]: inputRequired.elicit({ message: summary, requestedSchema: confirmationForm }) },
      }),
    };
  }
  const { summary, preview } = summaryOf(await input.summary());
  return {
    kind: 'ask',
    result: toolError(
      'MCP-CONFIRM-REQ-ERR',
      `${summary} Show this to the user; if they agree, call the tool again with the same arguments and confirm: true.`,
      preview ? { summary, preview } : { summary },
    ),
  };
}

const summaryOf = (s: ActionSummary): { summary: string; preview?: Record<string, unknown> } =>
  typeof s === 'string' ? { summary: s } : s;
