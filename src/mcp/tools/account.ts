import type { z } from 'zod';
import { AppError } from '../../lib/errors';
import {
  type BusinessView,
  getBusinessesOfUser,
  getShifterOfUser,
  getUserDetails,
  type ShifterView,
  updateAccountProfile,
  updateUserDetailsInput,
  type UserDetails,
} from '../../services/accounts';
import type { ServiceContext } from '../../services/kernel';
import { listShiftRoles } from '../../services/shifts';
import { defineTool } from '../tool';
import { meSpec, PROFILE_FIELDS, type profileRowSchema, updateMyProfileSpec } from '@shiftmarket/tool-specs';

type ProfileRow = z.infer<typeof profileRowSchema>;

/**
 * The profile rows the completeness score counts: the account's name, phone and verified email; the
 * shifter profile's headline, bio, photo and city; the default business's address, city and map
 * position. Score = filled rows ÷ rows, as a whole percentage (DECISIONS: "MCP tools").
 */
export function profileRows(user: UserDetails, shifter: ShifterView | null, business: BusinessView | null): ProfileRow[] {
  const rows: ProfileRow[] = [
    { profile: 'account', field: 'display_name', filled: user.display_name.trim() !== '' },
    { profile: 'account', field: 'phone', filled: user.phone !== null && user.phone !== '' },
    { profile: 'account', field: 'email_verified', filled: user.email_verified },
  ];
  if (shifter) {
    rows.push(
      { profile: 'shifter', field: 'headline', filled: !!shifter.headline },
      { profile: 'shifter', field: 'bio', filled: !!shifter.bio },
      { profile: 'shifter', field: 'photo_url', filled: !!shifter.photo_url },
      { profile: 'shifter', field: 'city', filled: shifter.city_id !== null },
    );
  }
  if (business) {
    rows.push(
      { profile: 'business', field: 'address', filled: !!business.address },
      { profile: 'business', field: 'city', filled: business.city_id !== null },
      { profile: 'business', field: 'location', filled: business.latitude !== null && business.longitude !== null },
    );
  }
  return rows;
}

export const completeness = (rows: ProfileRow[]) => Math.round((rows.filter((r) => r.filled).length / rows.length) * 100);

async function ownShifterView(ctx: ServiceContext): Promise<ShifterView | null> {
  try {
    return await getShifterOfUser(ctx);
  } catch (err) {
    if (err instanceof AppError && err.code === 'SHIFTER-NOT-FND-ERR') return null;
    throw err;
  }
}

export const me = defineTool({
  ...meSpec,
  async run(ctx) {
    const [user, shifter, { data: businesses }, shiftRoles] = await Promise.all([
      getUserDetails(ctx),
      ownShifterView(ctx),
      getBusinessesOfUser(ctx),
      listShiftRoles(ctx),
    ]);
    const rows = profileRows(user, shifter, businesses.find((b) => b.is_default) ?? businesses[0] ?? null);
    const role: 'both' | 'shifter' | 'business' | 'none' =
      shifter && businesses.length ? 'both' : shifter ? 'shifter' : businesses.length ? 'business' : 'none';
    return { user, role, profile_completeness: completeness(rows), profile_rows: rows, shifter, businesses, shift_roles: shiftRoles };
  },
  summarize: (r) => `${r.user.display_name} (${r.role}); profile ${r.profile_completeness}% complete.`,
});

/** Keys the server may add to a write tool's arguments; never reported as ignored. */
const CONTROL_KEYS = new Set(['confirm']);

function splitFields(args: Record<string, unknown>) {
  const allowed = new Set<string>(PROFILE_FIELDS);
  const updated = PROFILE_FIELDS.filter((f) => args[f] !== undefined);
  const ignored = Object.keys(args).filter((k) => !allowed.has(k) && !CONTROL_KEYS.has(k));
  return { updated, ignored };
}

export const updateMyProfile = defineTool({
  ...updateMyProfileSpec,
  async describeAction(_ctx, args) {
    const { updated, ignored } = splitFields(args);
    const change = updated.length ? `Change your ${updated.join(' and ')}` : 'Change nothing';
    return `${change}${ignored.length ? ` (not changeable here: ${ignored.join(', ')})` : ''}.`;
  },
  async run(ctx, args) {
    const { updated, ignored } = splitFields(args);
    if (!updated.length) return { user: await getUserDetails(ctx), updated_fields: [], ignored_fields: ignored };
    const parsed = updateUserDetailsInput.safeParse({ display_name: args.display_name, phone: args.phone });
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
      throw new AppError('VALIDATION-ERR', details.map((d) => `${d.field}: ${d.message}`).join('; '), details);
    }
    return { user: await updateAccountProfile(ctx, parsed.data), updated_fields: updated, ignored_fields: ignored };
  },
  summarize: (r) =>
    `${r.updated_fields.length ? `Updated ${r.updated_fields.join(', ')}` : 'Nothing updated'}${r.ignored_fields.length ? `; ignored ${r.ignored_fields.join(', ')}` : ''}.`,
});
