export { agendaUntil, type FileUse, mayAssign, mayCountPlay, mayReportShown } from './file-use';
export {
  type AssigningGroup,
  concerns,
  contentOfTakeover,
  inputsOf,
  orderGroups,
  type RankedGroup,
  type ResolvingScreen,
  stillRunning,
  type TakeoverRule,
  takeoverWindow,
} from './fleet';
export { codeFromBytes } from './pairing';
export {
  givenWith,
  groupsOfScreen,
  type HoursInForce,
  manifestOf,
  playlistFilesAt,
  reportIsRight,
  sameHours,
  type SettingGroup,
  settingsOf,
} from './screen-settings';
export {
  type AssignmentAt,
  addInterval,
  type ClaimedPlay,
  countsAsPlay,
  evidenceSince,
  futureAllowanceMs,
  type FileFacts,
  type Interval,
  inContentAt,
  inContentDuring,
  judgePlays,
  type LicencePeriod,
  MAX_PLAYED_INTERVALS,
  type OfflineGap,
  overlapMs,
  type PlayCandidate,
  type PlayEvidence,
  type PlaylistVersion,
  type PlayVerdict,
  playlistsOf,
  READ_MODEL_REASONS,
  type TakeoverPeriod,
  takeoverAt,
  trimPlayed,
  wasGiven,
} from './play-evidence';
export { csvField, daysBetween, localDay, type PlayBatchProblem, playBatchProblems, toCsv } from './plays';
export { isOnline, reportedTimeSane } from './status';
export { assignedContent, nextBoundary, resolvePlaying, scheduleProblems } from '@pagecast/contracts';
export * from './play-signature';
export { placeOf, placeProblem } from './alert-place';
export {
  type AlertKind,
  type AlertMatch,
  alertEndsAt,
  alertKindOf,
  alertMatch,
  emergencyWarningsAt,
  factsKey,
  isDrill,
  ruleOf,
} from './alert-match';
