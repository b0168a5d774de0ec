import { z } from '@hono/zod-openapi';
import { fileField } from '../../lib/uploads';

// Shift deliverables: what was delivered for a worked shift (issue 14): a note, links and files.

export const MAX_DELIVERABLE_LINKS = 10;

const linkSchema = z
  .object({
    url: z
      .string()
      .trim()
      .max(2048)
      .url()
      .refine((u) => /^https?:\/\//i.test(u), { message: 'must be an http or https address' })
      .openapi({ example: 'https://drive.example.com/report.pdf' }),
    label: z.string().trim().max(200).nullish(),
  })
  .openapi('DeliverableLink');

export const recordDeliverableInput = z
  .object({
    note: z.string().trim().max(4000).nullish().openapi({ description: 'What was delivered, in words.' }),
    links: z.array(linkSchema).max(MAX_DELIVERABLE_LINKS).default([]),
  })
  .refine((v) => (v.note && v.note.length > 0) || v.links.length > 0, { message: 'a deliverable needs a note or at least one link' })
  .openapi('RecordShiftDeliverable');
export type RecordDeliverableInput = z.infer<typeof recordDeliverableInput>;

export const deliverableFileSchema = z
  .object({
    id: z.string().openapi({ example: 'upl_3kW…' }),
    deliverable_id: z.string(),
    name: z
      .string()
      .openapi({ description: 'The uploaded file name, cleaned, ending in the extension of its type.', example: 'count-sheet.pdf' }),
    type: z
      .string()
      .openapi({ description: "The type told by the file's first bytes (never the client's claim).", example: 'application/pdf' }),
    size: z.number().int().openapi({ description: 'Bytes.' }),
    url: z.string().openapi({ description: 'Where its parties download it.' }),
    created_at: z.string(),
  })
  .openapi('ShiftDeliverableFile');
export type DeliverableFileView = z.infer<typeof deliverableFileSchema>;

export const deliverableFileForm = z.object({ file: fileField });

export const deliverableSchema = z
  .object({
    id: z.string().openapi({ example: 'dlv_8Jq…' }),
    shift_request_id: z.string(),
    author_user_id: z.string(),
    author_side: z.enum(['shifter', 'business']).openapi({ description: 'Which party of the shift wrote it.' }),
    note: z.string().nullable(),
    links: z.array(z.object({ url: z.string(), label: z.string().nullable() })),
    files: z.array(deliverableFileSchema).openapi({ description: 'Attached files, oldest first.' }),
    created_at: z.string(),
  })
  .openapi('ShiftDeliverable');
export type DeliverableView = z.infer<typeof deliverableSchema>;

export const deliverableListSchema = z
  .object({ shift_request_id: z.string(), data: z.array(deliverableSchema) })
  .openapi('ShiftDeliverableList');
export type DeliverableList = z.infer<typeof deliverableListSchema>;

export const deliverableDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('ShiftDeliverableDeleted');
export type DeliverableDeleted = z.infer<typeof deliverableDeletedSchema>;
