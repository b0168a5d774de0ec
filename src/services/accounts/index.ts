export { DISPLAY_NAME_MAX, PHONE_MAX, updateAccountProfile, updateUserDetailsInput } from './account-profile';
export { grantAdmin } from './admins';
export { getApiKeyInfo, regenerateApiKey } from './api-keys';
export {
  type CodeStepCookie,
  codeStepEmail,
  registerInBrowser,
  requestPasswordResetInBrowser,
  resendVerificationInBrowser,
  verifyEmailInBrowser,
} from './browser-steps';
export { CODE_STEP_TTL_MS } from './code-steps';
export { pruneAuthCodes } from './codes';
export {
  accountRights,
  endSessionWhere,
  looksLikeApiKey,
  looksLikeSession,
  mintApiKey,
  resolveApiKey,
  type ResolvedCredential,
  resolvePendingSession,
  resolveSession,
  resolveSessionById,
  signedInUser,
  touchApiKey,
  touchSession,
  useIsStale,
} from './credentials';
export { deviceLabel } from './devices';
export { LIMITS } from './limits';
export { closeLiveViewsOfEndedSessionsOf } from './live-views';
export { PASSWORD_PROBLEMS, passwordProblem } from './password-policy';
export { changePassword, confirmPasswordReset, requestPasswordReset } from './passwords';
export { createBusiness, createShifterProfile, makeDefaultBusiness } from './profiles';
export { businessView, getBusinessesOfUser, getShifterOfUser, getUserDetails, personTimeZone, type TimeZoneSource } from './reads';
export { registerAccount, resendVerification, verifyEmail } from './register';
export {
  adminGrantedSchema,
  type ApiKeyInfo,
  apiKeyInfoSchema,
  type ApiKeyIssued,
  apiKeyIssuedSchema,
  businessListSchema,
  businessSchema,
  type BusinessView,
  changePasswordInput,
  confirmPasswordResetInput,
  createBusinessInput,
  emailSchema,
  grantAdminInput,
  keyIssuedSchema,
  type LoginInput,
  loginInput,
  passwordChangedSchema,
  passwordResetRequestedSchema,
  pendingSignInInput,
  registeredSchema,
  registerInput,
  requestPasswordResetInput,
  resendVerificationInput,
  resendVerificationSchema,
  secondFactorInput,
  sessionListSchema,
  sessionRevokedSchema,
  sessionsRevokedSchema,
  type SessionView,
  shifterProfileInput,
  shifterSchema,
  type ShifterView,
  signedInSchema,
  signedOutSchema,
  timezoneSchema,
  type UserDetails,
  userDetailsSchema,
  userIdQuery,
  verifyEmailInput,
} from './schemas';
export {
  cancelTwoFactorLogin,
  completeTwoFactorLogin,
  listSessions,
  login,
  type LoginOutcome,
  logout,
  revokeOtherSessions,
  revokeSession,
} from './sessions';
export { HOME_AREA_MAX, SHIFTER_ROLES_MAX, TRAVEL_KM_MAX, updateShifterProfile, updateShifterProfileInput } from './shifter-profile';
export { cancelPendingSignIn, completeSecondFactor } from './two-factor/challenge';
export { beginTotpEnrolment, confirmTotpEnrolment, disableTwoFactor, regenerateBackupCodes, type TotpEnrolment } from './two-factor/enroll';
export { sendSignInSms, setSmsMethod } from './two-factor/sms';
export { confirmPassword, type PendingSignIn, type TwoFactorStatus, twoFactorStatus } from './two-factor/state';
export { totpCodeAt } from './two-factor/totp';
export { listTrustedDevices, revokeTrustedDevice, trustDevice, type TrustedDeviceView } from './two-factor/trusted-devices';
