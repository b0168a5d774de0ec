export { listLinkedBusinesses, listPartnerBroadcasts, listPartnerShifters, listPartnerShifts, postPartnerShift } from './api';
export { createClient, getClient, listClients, rotateClientCredential, updateClient } from './clients';
export {
  looksLikePartnerToken,
  mintCredential,
  PARTNER_TOKEN_PREFIX,
  partnerUseIsStale,
  resolvePartnerKey,
  resolvePartnerToken,
  tierLimit,
  touchPartnerKey,
} from './credentials';
export { linkPartnerClient, listPartnerLinks, unlinkPartnerClient, updatePartnerLink } from './links';
export { issueClientToken } from './oauth';
export {
  businessParams,
  clientListSchema,
  clientParams,
  createClientBody,
  issuedClientSchema,
  linkBody,
  linkListSchema,
  linkParams,
  oauthErrorSchema,
  pageQuery,
  partnerBroadcastsQuery,
  partnerBusinessListSchema,
  partnerClientSchema,
  partnerLinkSchema,
  type PartnerLinkView,
  partnerScopeSchema,
  partnerShiftBody,
  partnerShifterListSchema,
  partnerShiftsQuery,
  rotateBody,
  rotatedSchema,
  tokenRequestBody,
  tokenResponseSchema,
  updateClientBody,
  updateLinkBody,
} from './schemas';
