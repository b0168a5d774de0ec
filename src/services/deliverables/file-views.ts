import { asc, eq } from 'drizzle-orm';
import { shiftDeliverableFiles } from '../../db/schema';
import { toIso } from '../../lib/time';
import type { ServiceContext } from '../kernel';
import type { DeliverableFileView } from './schemas';

export type DeliverableFileRow = typeof shiftDeliverableFiles.$inferSelect;

export function deliverableFilePath(r: Pick<DeliverableFileRow, 'shift_request_id' | 'deliverable_id' | 'id'>) {
  return `/v1/shift_request/${r.shift_request_id}/deliverables/${r.deliverable_id}/files/${r.id}`;
}

export function deliverableFileView(r: DeliverableFileRow): DeliverableFileView {
  return {
    id: r.id,
    deliverable_id: r.deliverable_id,
    name: r.name,
    type: r.content_type,
    size: r.size,
    url: deliverableFilePath(r),
    created_at: toIso(r.created_at),
  };
}

/** The files of a shift's deliverables, per deliverable, oldest first. */
export async function filesOf(ctx: ServiceContext, shiftId: string): Promise<Map<string, DeliverableFileView[]>> {
  const rows = await ctx.db
    .select()
    .from(shiftDeliverableFiles)
    .where(eq(shiftDeliverableFiles.shift_request_id, shiftId))
    .orderBy(asc(shiftDeliverableFiles.created_at), asc(shiftDeliverableFiles.id));
  const out = new Map<string, DeliverableFileView[]>();
  for (const r of rows) {
    const list = out.get(r.deliverable_id) ?? [];
    list.push(deliverableFileView(r));
    out.set(r.deliverable_id, list);
  }
  return out;
}
