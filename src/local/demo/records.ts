import type { counterRules, credentials, mileageEntries } from '../../db/schema';
import { newId } from '../../lib/ids';
import { addDays, todayIn, wallClockToInstant } from '../../lib/shift-time';
import { sniffType } from '../../lib/uploads';
import { COUNTER_RULES, CREDENTIALS, type DemoCredential, TRIP_PURPOSES } from './cast';

/**
 * Demo shifter records: a mileage log per shifter (the last ~100 days, plus two trips in the previous
 * calendar year so the year rollups can be compared), the counter rules and the credentials of
 * cast.ts, and the one-page PDF scans those credentials carry, with their R2 keys laid out as
 * docs/storage.md says. Rows and objects are built here; seed.ts writes them.
 */
export interface RecordShifter {
  key: string;
  id: string;
  user_id: string;
  name: string;
  timezone: string;
}

/** An object for the UPLOADS bucket, with the metadata an upload through the API would carry. */
export interface DemoDocument {
  key: string;
  bytes: Uint8Array;
  httpMetadata: { contentType: string };
  customMetadata: Record<string, string>;
}

export interface ShifterRecords {
  mileage: (typeof mileageEntries.$inferInsert)[];
  counterRules: (typeof counterRules.$inferInsert)[];
  credentials: (typeof credentials.$inferInsert)[];
  documents: DemoDocument[];
}

const DAY = 24 * 3600 * 1000;
/** Days back of each shifter's recent trips; the first is moved into the current year if needed. */
const TRIP_DAYS = [2, 11, 19, 33, 47, 58, 71, 86, 97];

/**
 * A valid one-page PDF showing `lines` (ASCII) in Helvetica: small, and it opens in any viewer.
 * Offsets in the cross-reference table are byte offsets, which equal string offsets for ASCII.
 */
export function demoPdf(lines: string[]): Uint8Array {
  const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((l, i) => `BT /F1 ${i === 0 ? 20 : 12} Tf 72 ${720 - i * 26} Td (${ascii(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

function mileageFor(s: RecordShifter, index: number, now: number, rateCents: number): ShifterRecords['mileage'] {
  const today = todayIn(s.timezone, now);
  const year = Number(today.slice(0, 4));
  const trips = 5 + (index % 4);
  const dates = TRIP_DAYS.slice(0, trips).map((back, k) => {
    const d = addDays(today, -(back + ((index * 3 + k) % 4)));
    // The newest trip stays in the current year, so this year's rollup is never empty (early January).
    return k === 0 && d < `${year}-01-01` ? `${year}-01-01` : d;
  });
  const pad = (n: number) => String(n).padStart(2, '0');
  dates.push(`${year - 1}-10-${pad(6 + index)}`, `${year - 1}-11-${pad(12 + index)}`);
  return dates.map((date, k) => {
    const at = Math.min(wallClockToInstant(date, '21:30', s.timezone), now - 60_000);
    return {
      id: newId('mileage'),
      shifter_id: s.id,
      log_date: date,
      miles: (300 + ((index * 733 + k * 1291) % 1800)) / 100,
      rate_per_mile_cents: rateCents,
      purpose: TRIP_PURPOSES[(index + k) % TRIP_PURPOSES.length] ?? null,
      created_at: at,
      updated_at: at,
    };
  });
}

function credentialFor(
  s: RecordShifter,
  c: DemoCredential,
  i: number,
  now: number,
): { row: ShifterRecords['credentials'][number]; document?: DemoDocument } {
  const today = todayIn(s.timezone, now);
  const at = now - (20 + i) * DAY;
  const row: ShifterRecords['credentials'][number] = {
    id: newId('credential'),
    shifter_id: s.id,
    label: c.label,
    issuer: c.issuer,
    issued_on: c.issued === null ? null : addDays(today, c.issued),
    expires_on: c.expires === null ? null : addDays(today, c.expires),
    notes: c.notes ?? null,
    document_key: null,
    document_type: null,
    document_size: null,
    is_visible: c.visible,
    created_at: at,
    updated_at: at,
  };
  if (!c.document) return { row };
  const bytes = demoPdf([
    c.label,
    `Holder: ${s.name}`,
    `Issued by: ${c.issuer ?? '-'}`,
    `Issued on: ${row.issued_on ?? '-'}`,
    `Expires on: ${row.expires_on ?? 'does not expire'}`,
    'Shiftmarket demo document',
  ]);
  // The type and extension are sniffed from the bytes, as an upload's are (services/shifter-records/credentials.ts).
  const type = sniffType(bytes.slice(0, 16))!;
  const key = `credentials/${s.id}/${row.id}/${newId('upload')}.${type.ext}`;
  Object.assign(row, { document_key: key, document_type: type.mime, document_size: bytes.byteLength });
  return {
    row,
    document: {
      key,
      bytes,
      httpMetadata: { contentType: type.mime },
      customMetadata: { shifter_id: s.id, credential_id: row.id, uploaded_by: s.user_id },
    },
  };
}

/** `shifters` in cast order; `rateCents` is the operator's mileage rate, captured on every entry. */
export function buildShifterRecords(now: number, shifters: RecordShifter[], rateCents: number): ShifterRecords {
  const byKey = new Map(shifters.map((s) => [s.key, s]));
  const out: ShifterRecords = { mileage: [], counterRules: [], credentials: [], documents: [] };
  shifters.forEach((s, i) => {
    out.mileage.push(...mileageFor(s, i, now, rateCents));
  });
  COUNTER_RULES.forEach(({ shifter, ...r }, i) => {
    const s = byKey.get(shifter);
    if (!s) return;
    const at = now - (30 - i) * DAY;
    out.counterRules.push({ ...r, id: newId('counterRule'), shifter_id: s.id, is_auto_apply: false, created_at: at, updated_at: at });
  });
  CREDENTIALS.forEach((c, i) => {
    const s = byKey.get(c.shifter);
    if (!s) return;
    const { row, document } = credentialFor(s, c, i, now);
    out.credentials.push(row);
    if (document) out.documents.push(document);
  });
  return out;
}
