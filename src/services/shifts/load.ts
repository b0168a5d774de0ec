import { type LoadedShift, loadShift, type ServiceContext } from '../kernel';
import type { ShiftRequestView } from './schemas';
import { shiftRequestView } from './view';

export { type LoadedShift, loadShift };

/** The API view of a loaded shift. */
export function viewLoaded(s: LoadedShift): ShiftRequestView {
  return shiftRequestView(s.row, {
    business_name: s.business.name,
    business_slug: s.business.slug,
    business_timezone: s.business.timezone,
    role_label: s.roleLabel,
    shifter_name: s.shifter?.display_name ?? null,
    shifter_slug: s.shifter?.slug ?? null,
  });
}

/** One shift's API view, read fresh: what each transition answers with. */
export async function loadView(ctx: ServiceContext, id: string): Promise<ShiftRequestView> {
  return viewLoaded(await loadShift(ctx, id));
}
