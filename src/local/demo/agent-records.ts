import { type BatchItem, runBatch } from '../../db/client';
import { aiPassports, shiftDeliverableFiles, shiftDeliverables } from '../../db/schema';
import { newId } from '../../lib/ids';
import { isWorked, type ServiceContext } from '../../services/kernel';
import type { DemoExtra, DemoWorld } from './world';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const STOCK_SHEET = 'item,start,end,used\nIPA keg (50 l),1,2,1\nLager keg (50 l),2,3,1\nLimes (kg),4,1.5,2.5\nMint (bunches),10,3,7\n';

/**
 * AI passports and shift deliverables of the demo (issue 14): the owner's and Jordan's agents (one of
 * Jordan's revoked), and on Jordan's latest worked bistro shift the owner's brief and Jordan's handover
 * with its stock sheet as a CSV file.
 */
async function seedDemoAgentRecords(ctx: ServiceContext, world: DemoWorld): Promise<number> {
  const now = world.now;
  const owner = world.userId('owner');
  const jordan = world.userId('jordan');
  const passports: (typeof aiPassports.$inferInsert)[] = [
    {
      id: newId('passport'),
      user_id: owner,
      agent_name: 'Claude Desktop',
      model: 'claude-sonnet-4',
      operator: 'Maya Ortiz',
      purpose: 'Posts the weekend shifts and answers crew questions',
      created_at: now - 20 * DAY,
      revoked_at: null,
    },
    {
      id: newId('passport'),
      user_id: jordan,
      agent_name: 'shiftmarket-mcp',
      model: 'gpt-4o-mini',
      operator: 'Jordan Rivera',
      purpose: 'Finds open bar shifts near home',
      created_at: now - 40 * DAY,
      revoked_at: now - 10 * DAY,
    },
    {
      id: newId('passport'),
      user_id: jordan,
      agent_name: 'Cursor',
      model: 'claude-sonnet-4',
      operator: 'Jordan Rivera',
      purpose: null,
      created_at: now - 9 * DAY,
      revoked_at: null,
    },
  ];
  const bistro = world.businessId('bistro');
  const jordanShifter = world.shifterId('jordan');
  let shift: DemoWorld['shifts'][number] | null = null;
  for (const s of world.shifts) {
    if (s.business_id !== bistro || s.shifter_id !== jordanShifter) continue;
    if (!isWorked({ request_status: s.request_status ?? 1, shift_end_at: s.shift_end_at ?? null, is_noshow: s.is_noshow ?? false }))
      continue;
    if (!shift || (s.shift_end_at ?? 0) > (shift.shift_end_at ?? 0)) shift = s;
  }
  const deliverables: (typeof shiftDeliverables.$inferInsert)[] = [];
  const files: (typeof shiftDeliverableFiles.$inferInsert)[] = [];
  if (shift?.id && shift.shift_end_at) {
    const handover = newId('deliverable');
    const handoverAt = Math.min(now - HOUR, shift.shift_end_at + HOUR);
    deliverables.push(
      {
        id: newId('deliverable'),
        shift_request_id: shift.id,
        author_user_id: owner,
        author_side: 'business',
        note: 'Brief: Friday service, 80 covers booked; the new cocktail list is in the folder.',
        links: JSON.stringify([{ url: 'https://example.com/bistro/cocktail-list.pdf', label: 'Cocktail list' }]),
        created_at: Math.min(now - HOUR, shift.shift_end_at - 6 * HOUR),
      },
      {
        id: handover,
        shift_request_id: shift.id,
        author_user_id: jordan,
        author_side: 'shifter',
        note: 'Handover: bar restocked, two kegs changed, stock sheet filled in.',
        links: JSON.stringify([{ url: 'https://example.com/bistro/stock-sheet', label: 'Stock sheet' }]),
        created_at: handoverAt,
      },
    );
    // The stock sheet as a file on the handover, stored like an upload (services/deliverables/files.ts): the object first, then its row.
    const bytes = new TextEncoder().encode(STOCK_SHEET);
    const id = newId('upload');
    const key = `deliverables/${shift.id}/${handover}/${id}.csv`;
    await ctx.env.UPLOADS.put(key, bytes, {
      httpMetadata: { contentType: 'text/csv' },
      customMetadata: { shift_request_id: shift.id, deliverable_id: handover, uploaded_by: jordan },
    });
    files.push({
      id,
      deliverable_id: handover,
      shift_request_id: shift.id,
      uploaded_by_user_id: jordan,
      name: 'stock-sheet.csv',
      content_type: 'text/csv',
      size: bytes.byteLength,
      object_key: key,
      created_at: handoverAt,
    });
  }
  const statements: BatchItem[] = [ctx.db.insert(aiPassports).values(passports)];
  if (deliverables.length) statements.push(ctx.db.insert(shiftDeliverables).values(deliverables));
  if (files.length) statements.push(ctx.db.insert(shiftDeliverableFiles).values(files));
  await runBatch(ctx.db, statements);
  return passports.length + deliverables.length + files.length;
}

export const demoAgentRecords: DemoExtra = { name: 'AI passports and deliverables', seed: seedDemoAgentRecords };
