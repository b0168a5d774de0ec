import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import { listPassportsQuery, passportListSchema, passportSchema, recordPassportInput } from '../../services/passports';

const tags = ['AI passports'];

export const recordAiPassport = authRoute({
  method: 'post',
  operationId: 'recordAiPassport',
  authorization: 'self',
  path: '/v1/ai_passports',
  tags,
  summary: 'Record which agent, model and operator act for your account (your own account only)',
  request: { body: jsonBody(recordPassportInput) },
  responses: { 201: jsonContent(passportSchema, 'The passport.') },
});

export const listAiPassports = authRoute({
  method: 'get',
  operationId: 'listAiPassports',
  authorization: 'self',
  path: '/v1/ai_passports',
  tags,
  summary: "Your account's AI passports, newest first (active ones unless include_revoked)",
  request: { query: listPassportsQuery },
  responses: { 200: jsonContent(passportListSchema, 'The passports.') },
});

export const revokeAiPassport = authRoute({
  method: 'post',
  operationId: 'revokeAiPassport',
  authorization: 'self',
  path: '/v1/ai_passports/{id}/revoke',
  tags,
  summary: 'Revoke one of your AI passports (kept, marked revoked)',
  request: { params: idParam },
  responses: { 200: jsonContent(passportSchema, 'The passport, revoked.') },
  errors: ['PASSPORT-NOT-FND-ERR', 'PASSPORT-REVOKED-ERR'],
});
