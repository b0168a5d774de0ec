import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import { connectionListsSchema, connectionSchema, listConnectionsInput, sendConnectionInput } from '../../services/connections';

const tags = ['Connections'];

const one = (d: string) => jsonContent(connectionSchema, d);

export const send = authRoute({
  method: 'post',
  operationId: 'sendConnectionRequest',
  authorization: 'party',
  path: '/v1/request_authorization/send',
  tags,
  summary: 'Ask to connect a business and a shifter (from either side)',
  description:
    'The business side (owner or active teammate) sends `{business_id, shifter_id}`; a shifter sends `{business_id}`. A pending request from the other side is accepted instead (both want it); a declined or removed pair is reopened as pending.',
  request: { body: jsonBody(sendConnectionInput) },
  responses: { 201: one('The connection: pending, or accepted when the other side had already asked.') },
  errors: [
    'BUSINESS-NOT-FND-ERR',
    'SHIFTER-NOT-FND-ERR',
    'CONNECTION-EXISTS-ERR',
    'CONFLICT-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});

export const accept = authRoute({
  method: 'post',
  operationId: 'acceptConnectionRequest',
  authorization: 'party',
  path: '/v1/request_authorization/{id}/accept',
  tags,
  summary: 'Accept a pending connection request (receiving side only)',
  request: { params: idParam },
  responses: { 200: one('The accepted connection.') },
  errors: ['CONNECTION-NOT-FND-ERR', 'CONFLICT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const decline = authRoute({
  method: 'post',
  operationId: 'declineConnectionRequest',
  authorization: 'party',
  path: '/v1/request_authorization/{id}/decline',
  tags,
  summary: 'Decline a pending connection request (receiving side only)',
  request: { params: idParam },
  responses: { 200: one('The declined connection.') },
  errors: ['CONNECTION-NOT-FND-ERR', 'CONFLICT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const remove = authRoute({
  method: 'delete',
  operationId: 'removeConnection',
  authorization: 'party',
  path: '/v1/request_authorization/{id}',
  tags,
  summary: 'Remove a connection or withdraw a request (either side)',
  request: { params: idParam },
  responses: { 200: one('The connection, now removed.') },
  errors: ['CONNECTION-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const list = authRoute({
  method: 'post',
  operationId: 'listConnectionRequests',
  authorization: 'business-member',
  path: '/v1/request_authorization/list_of_requests',
  tags,
  summary: "The caller's connections: incoming, outgoing and accepted",
  request: { body: jsonBody(listConnectionsInput) },
  responses: { 200: jsonContent(connectionListsSchema, 'The connections, newest change first in each list.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});
