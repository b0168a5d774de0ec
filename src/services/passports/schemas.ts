import { z } from '@hono/zod-openapi';
import { pagingLimit } from '../kernel';

// AI passports: which agent, model and operator act for an account (issue 14).

export const recordPassportInput = z
  .object({
    agent_name: z.string().trim().min(1).max(100).openapi({ example: 'Claude Desktop', description: 'The agent (client program) acting.' }),
    model: z.string().trim().min(1).max(100).openapi({ example: 'claude-sonnet-4', description: 'The language model behind it.' }),
    operator: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .openapi({ example: 'Dana Ortiz <dana@example.com>', description: 'The person or company answerable for the agent.' }),
    purpose: z.string().trim().max(500).nullish().openapi({ description: 'What the agent does for the account.' }),
  })
  .openapi('RecordAiPassport');
export type RecordPassportInput = z.infer<typeof recordPassportInput>;

export const listPassportsQuery = z.object({
  include_revoked: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true')
    .openapi({ description: 'Also list revoked passports (default: active ones only).' }),
  limit: pagingLimit({ default: 50, limitDescription: null }),
});
export type ListPassportsQuery = z.infer<typeof listPassportsQuery>;

export const passportSchema = z
  .object({
    id: z.string().openapi({ example: 'psp_4mX9…' }),
    user_id: z.string(),
    agent_name: z.string(),
    model: z.string(),
    operator: z.string(),
    purpose: z.string().nullable(),
    status: z.enum(['active', 'revoked']),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .openapi('AiPassport');
export type PassportView = z.infer<typeof passportSchema>;

export const passportListSchema = z.object({ data: z.array(passportSchema) }).openapi('AiPassportList');
export type PassportList = z.infer<typeof passportListSchema>;
