export { acceptRequest } from './accept';
export { calendarFeedState, calendarFeedText, revokeCalendarFeed, rotateCalendarFeed } from './calendar-feed';
export { cancelShift, shifterCancelPreview } from './cancel';
export { changeRequest } from './change';
export { claimBroadcast, type ClaimInput, type ClaimOutcome, commitClaim } from './claim';
export {
  CLOCK_PHOTO_MAX_BYTES,
  CLOCK_PHOTO_UNUSED_HOURS,
  clockIn,
  clockOut,
  type ClockPlace,
  clockPlaces,
  MAX_CLOCK_PHOTOS_PER_SIDE,
  OFFLINE_PUNCH_MAX_AGE_HOURS,
  OFFLINE_PUNCH_MAX_SKEW_SECONDS,
  readClockPhoto,
  sweepUnusedClockPhotos,
  uploadClockPhoto,
} from './clock';
export {
  CLOCK_IN_EARLY_MINUTES,
  type ClockState,
  type ClockTimes,
  clockTimesOfView,
  type ClockWindow,
  clockWindow,
  clockWindowField,
  MIN_CLOCKED_MINUTES,
  type PunchAs,
  withClockWindow,
} from './clock-window';
export { acceptedShiftsOfShifters, findConflicts, overlapsWindow, overlapsWithMyShifts } from './conflicts';
export { proposeCounterOffer } from './counter-offer';
export { counterFloor, distanceKm, loadCounterContext, suggestCounter, suggestionFields } from './counter-suggest';
export {
  buildShiftRow,
  MAX_SHIFT_MINUTES,
  newShiftEventDrafts,
  newShiftRecipients,
  type NewShiftRow,
  type ShiftRowLookups,
  sendRequest,
  shiftRowLookups,
} from './create';
export { declineRequest } from './decline';
export { expirePendingShifts } from './expire';
export { getShiftRequest } from './get';
export { SHIFT_INPUT_BOUNDS } from './input-bounds';
export { listBroadcasts, listRequests, listRequestsMany, listRequestSummaries } from './list';
export { listBroadcastsWithReasons } from './list';
export { loadShift } from './load';
export { markNoShow } from './no-show';
export { listShiftRoles, type ShiftRoleView } from './roles';
export {
  cancelBody,
  cancelledShiftSchema,
  changedShiftSchema,
  changeRequestBody,
  clockBody,
  clockPhotoForm,
  clockPhotoParams,
  clockPhotoQuery,
  clockPhotoSchema,
  type ClockSide,
  clockSideSchema,
  conflictsQuery,
  conflictsSchema,
  currencySchema,
  dateSchema,
  declineBody,
  flagSchema,
  listBroadcastsBody,
  listRequestsBody,
  noteSchema,
  rateSchema,
  type RelevanceSignals,
  sendRequestInput,
  type ShiftConflicts,
  type ShiftList,
  shiftListSchema,
  shiftRequestSchema,
  type ShiftRequestView,
  timeSchema,
  unassignBody,
  type UnassignedShift,
  unassignedShiftSchema,
} from './schemas';
export {
  type PostedShift,
  postedShiftSchema,
  type PostingWarning,
  type PostingWarningCode,
  POSTING_WARNING_CODES,
  postingWarningSchema,
} from './schemas';
export {
  EMPTY_CREW_MESSAGE,
  emptyCrewWarning,
  postingWarnings,
  sendRequestWithWarnings,
  shifterBusyWords,
  withPostingWarnings,
  withPostingWarningsEach,
} from './warnings';
export { shiftIsLate, shiftStateWords } from './state-words';
export { type ShiftClockRules, type ShifterShift, shifterShift, type ShiftVenue } from './shifter-shift';
export { type ShiftActions, type ShiftStory, shiftStory } from './story';
export type { StoryKind, StoryLine, StoryMoney, StoryVersion } from './story-types';
export { businessShiftsDated, DATED_READ_MAX, todaysShifts } from './today';
export { unassignRefusal, unassignShift } from './unassign';
export { upcomingShiftsOfUser } from './upcoming';
export { shiftRequestView, type ShiftSummary } from './view';
