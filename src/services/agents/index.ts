export {
  type AgentGrant,
  agentGrantListSchema,
  agentGrantRevokedSchema,
  GRANT_ID_MAX_LENGTH,
  grantIdSchema,
  listAgentGrants,
  revokeAgentGrant,
} from './grants';
export {
  expireUnusedClients,
  grantScopes,
  markRefreshTokenUsed,
  pendingStepUp,
  recordClientUsed,
  recordIssuedRefreshToken,
  recordRegisteredClient,
  REFRESH_RECORD_TTL_SECONDS,
  refreshRecord,
  rememberStepUp,
  revokeGrantOnReuse,
  tokenOwner,
  UNUSED_CLIENT_DAYS,
} from './oauth-records';
export { agentSettingsSchema, confirmWritesFor, getAgentSettings, setConfirmWrites, updateAgentSettings } from './settings';
export { recordToolCall, type ToolCallRecord } from './tool-audit';
