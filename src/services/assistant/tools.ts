import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import { isValidDate } from '../../lib/shift-time';
import type { BusinessRow } from '../access';
import type { ToolCall, ToolSpec } from '../ai';
import { type ServiceContext, SHIFT_STATUS, SHIFT_STATUS_NAMES } from '../kernel';
import { crewAnalytics, goingRate, laborCosts } from '../insights';
import { listRequests, listRequestsBody } from '../shifts';
import { acceptProposal, actionKey, type Invite, proposalParameters, proposalSchema } from './actions';
import { type AssistantAction, MAX_ACTIONS } from './schemas';

/**
 * The assistant's tools. Each is bound to the chat's business (no tool takes a business id) and calls
 * the same service the API route does, with the caller's own ServiceContext, so the access rules
 * are the API's: a teammate asking for labor costs gets the FORBIDDEN-ERR an owner-or-admin route gives.
 * Arguments are JSON the model wrote: parsed and checked with zod before use; a refusal or an error
 * goes back to the model as the tool's result, never to the user as a failed request.
 */
export interface ToolScope {
  ctx: ServiceContext;
  business: BusinessRow;
  /** Actions proposed so far in this answer, and the invitations among them. */
  actions: AssistantAction[];
  invites: Invite[];
}

interface Tool<S extends z.ZodType> {
  description: string;
  input: S;
  /** JSON Schema shown to the model; default: generated from `input`. */
  parameters?: Record<string, unknown>;
  run(scope: ToolScope, args: z.infer<S>): Promise<unknown>;
}
const tool = <S extends z.ZodType>(t: Tool<S>) => t as unknown as Tool<z.ZodType>;

const date = z.string().max(10).refine(isValidDate, 'must be a calendar date YYYY-MM-DD');
/** Rows of a list a tool returns, at most: keeps a tool result well inside the model's context. */
const LIST_CAP = 40;
/** The longest tool result sent back to the model, in characters. */
export const TOOL_RESULT_MAX = 16_000;

const TOOLS: Record<string, Tool<z.ZodType>> = {
  list_shifts: tool({
    description:
      "This business's shift requests, newest first: date, times (business zone), role, shifter, status, rate. Filter by status, dates, role or broadcasts.",
    input: z.strictObject({
      status: z
        .enum(SHIFT_STATUS_NAMES)
        .optional()
        .describe('pending, accepted (scheduled or worked), declined, superseded, completed, expired or cancelled.'),
      date_from: date.optional().describe('Shift date from (YYYY-MM-DD).'),
      date_to: date.optional().describe('Shift date to (YYYY-MM-DD).'),
      shiftrole_id: z.number().int().positive().optional().describe('A shift role id (the roles are listed in the instructions).'),
      broadcasts_only: z.boolean().optional().describe('Only broadcasts to the crew.'),
      limit: z.number().int().min(1).max(LIST_CAP).optional().describe(`At most ${LIST_CAP}; default 20.`),
    }),
    async run({ ctx, business }, a) {
      const page = await listRequests(
        ctx,
        listRequestsBody.parse({
          as: 'business',
          business_id: business.id,
          ...(a.status ? { status: SHIFT_STATUS[a.status as keyof typeof SHIFT_STATUS] } : {}),
          ...(a.date_from ? { date_from: a.date_from } : {}),
          ...(a.date_to ? { date_to: a.date_to } : {}),
          ...(a.shiftrole_id ? { shiftrole_id: a.shiftrole_id } : {}),
          ...(a.broadcasts_only ? { is_broadcast: true } : {}),
          limit: a.limit ?? 20,
        }),
      );
      return {
        shifts: page.data.map((s) => ({
          id: s.id,
          date: s.shift_date,
          in: s.shift_in,
          out: s.shift_out,
          role: s.role,
          shifter_id: s.shifter_id,
          shifter_name: s.shifter_name,
          status: s.status,
          is_broadcast: s.is_broadcast === 1,
          hourly_rate: s.hourly_rate,
          currency: s.currency,
          clocked_in: s.shift_start_at !== null,
          clocked_out: s.shift_end_at !== null,
          no_show: s.is_noshow === 1,
        })),
        more: page.next_cursor !== null,
      };
    },
  }),
  crew: tool({
    description:
      "This business's crew over the last 90 days: per shifter (id, name, completed shifts, hours, pay, no-shows, cancellations, reliability 0–100, last worked), repeat rate, accept rate. Pay is null (pay_included false) when the user is a teammate: pay is for the owner and admins.",
    input: z.strictObject({}),
    async run({ ctx, business }) {
      const c = await crewAnalytics(ctx, business.id);
      const { per_shifter, ...totals } = c;
      return {
        ...totals,
        per_shifter: per_shifter.slice(0, LIST_CAP).map(({ shifter_slug: _slug, ...m }) => m),
        more: per_shifter.length > LIST_CAP,
      };
    },
  }),
  labor_costs: tool({
    description:
      "This business's labor costs for a week (Monday start): total, last week, change, weekly budget and over/under, by shifter, by role, and the last 8 weeks.",
    input: z.strictObject({ week: date.optional().describe('Any date of the week; default this week.') }),
    async run({ ctx, business }, a) {
      const l = await laborCosts(ctx, business.id, a.week ? { week: a.week } : {});
      return { ...l, by_shifter: l.by_shifter.slice(0, LIST_CAP), more_shifters: l.by_shifter.length > LIST_CAP };
    },
  }),
  going_rate: tool({
    description:
      'The going hourly rate (min, p25, median, p75, max, mean, sample size) of worked shifts around this business in the last 90 days, optionally for one role; sufficient_data says whether the sample is large enough.',
    input: z.strictObject({
      shiftrole_id: z.number().int().positive().optional().describe('A shift role id (the roles are listed in the instructions).'),
      area: z.enum(['city', 'state', 'country']).optional().describe('Around the business: its city (default), state or country.'),
    }),
    async run({ ctx, business }, a) {
      // The asked area, or the nearest wider one the business has on record.
      const area = a.area ?? 'city';
      const place =
        area === 'city' && business.city_id !== null
          ? { city_id: business.city_id }
          : area !== 'country' && business.state_id !== null
            ? { state_id: business.state_id }
            : business.country_id !== null
              ? { country_id: business.country_id }
              : null;
      if (!place) throw new AppError('VALIDATION-ERR', 'The business has no location on record, so there is no going rate around it.');
      return goingRate(ctx, { ...place, ...(a.shiftrole_id ? { shiftrole_id: a.shiftrole_id } : {}) });
    },
  }),
  propose_action: tool({
    description:
      'Offer the user a one-click action (shown as a button under your answer; nothing happens until they click): invite_shifter (shifter_id), open_shift_form (date, in, out), open_url (url). At most 3 per answer.',
    input: proposalSchema,
    parameters: proposalParameters,
    async run(scope, p) {
      if (scope.actions.length >= MAX_ACTIONS) throw new AppError('VALIDATION-ERR', `At most ${MAX_ACTIONS} actions per answer.`);
      const { action, invite } = await acceptProposal(scope.ctx, scope.business, p);
      if (scope.actions.some((a) => actionKey(a) === actionKey(action))) return { proposed: action, note: 'already proposed' };
      scope.actions.push(action);
      if (invite) scope.invites.push(invite);
      return { proposed: action };
    },
  }),
};

/** The tools as the model sees them. */
export const TOOL_SPECS: ToolSpec[] = Object.entries(TOOLS).map(([name, t]) => {
  const { $schema: _drop, ...parameters } = t.parameters ?? (z.toJSONSchema(t.input, { io: 'input' }) as Record<string, unknown>);
  return { name, description: t.description, parameters };
});

const issuesText = (e: z.ZodError) => e.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');

/** Runs one tool call and returns its result as the JSON text the model reads next (an error is a result too). */
export async function runTool(scope: ToolScope, call: ToolCall): Promise<string> {
  const t = Object.hasOwn(TOOLS, call.name) ? TOOLS[call.name] : undefined;
  const error = (code: string, message: string) => JSON.stringify({ error: { code, message } });
  if (!t) return error('VALIDATION-ERR', `There is no tool named ${call.name}.`);
  let raw: unknown;
  try {
    raw = JSON.parse(call.arguments || '{}');
  } catch {
    return error('VALIDATION-ERR', 'The arguments are not valid JSON.');
  }
  const args = t.input.safeParse(raw);
  if (!args.success) return error('VALIDATION-ERR', `Invalid arguments: ${issuesText(args.error)}`);
  try {
    const text = JSON.stringify(await t.run(scope, args.data));
    return text.length <= TOOL_RESULT_MAX ? text : error('RESULT-TOO-LARGE', 'The result is too large; narrow the request.');
  } catch (err) {
    if (err instanceof AppError) return error(err.code, err.message);
    scope.ctx.log.error('assistant tool failed', { tool: call.name, ...errorFields(err) });
    return error('INTERNAL-ERR', 'The tool failed; the figure is not available right now.');
  }
}
