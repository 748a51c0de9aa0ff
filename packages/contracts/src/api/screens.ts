// Screens: paired displays with their own device credential, what they play, heartbeats, proof of play.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id, IsoDateTime, OkResponse } from '../validation';
import { DisplayPublicKey, SignedBatchHeader } from './play-signature';
import { ScreenPlace, TakeoverAlert } from './screen-alerts';
import { OpeningHours, ScreenRotation, ShownReport } from './screen-health';
import { TimeOfDay, Weekday } from './wall-time';

/** Pairing codes: 6 characters of an alphabet without look-alikes (0/O, 1/I): 32^6 ≈ 1.07e9 codes. */
export const PAIRING_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PAIRING_CODE_LENGTH = 6;
export const PAIRING_CODE_TTL_SECONDS = 300;
/** The display sends a heartbeat this often; the Screens page shows it offline after two missed ones. */
export const SCREEN_HEARTBEAT_SECONDS = 15;
export const SCREEN_OFFLINE_AFTER_SECONDS = 2 * SCREEN_HEARTBEAT_SECONDS + 5;
export const SCREEN_DEFAULT_TIME_ZONE = 'Asia/Tokyo';
/**
 * The display sends its play records this often (and at once when it comes back online). Proof of play is read per
 * day, so half a minute costs a report nothing; every batch costs the whole stack about a millisecond of CPU whatever
 * it holds (its frame, its relay, its judging, its ledger version: docs/scale.md), so three times fewer batches of
 * three times the records were a fifth of the displays' load.
 */
export const PLAY_FLUSH_SECONDS = 30;
/** Play batches: records per batch, and how far ahead of the server's clock a record may start. */
export const PLAY_BATCH_MAX = 500;
export const PLAY_FUTURE_SLACK_SECONDS = 300;
/** A page shown longer than a day is a stuck display, not proof of play. */
export const PLAY_MAX_SECONDS = 86_400;
/**
 * How far past a video's length (as file conversion measured it) a play record's reached second may lie: a browser's
 * last frame time and the container's stated length differ by a frame or two.
 */
export const PLAY_REACHED_SLACK_SECONDS = 1;
/** Records older than this are refused (the device keeps at most this much offline). */
export const PLAY_MAX_AGE_DAYS = 31;
/**
 * Proof of play as evidence: how long a live change (assignment, playlist) may take to reach a display,
 * so a record may show what the screen was given up to this long before it started; and how much two plays of one
 * screen may overlap (honest back-to-back pages, rounding and clock steps) before the later one is refused.
 */
export const PLAY_PROPAGATION_SECONDS = 60;
export const PLAY_OVERLAP_TOLERANCE_SECONDS = 1;
/**
 * What a seller's sold report counts as a play: a counted record whose credited time (what it added to its screen's
 * played time) is at least this share of its page's duration, and at least PLAY_MIN_SECONDS. Time, not records: a
 * screen's credited time never exceeds the time that passed, so a display can report at most 1 / 0.8 = 1.25 plays per
 * page duration of wall time, however it cuts its records; an honest page (shown its full time, rounded to a tenth of
 * a second, clipped by a rounding overlap with the page before) always counts, a page cut short before 80 % of its
 * time (a change of content, closing, a restart) does not.
 */
export const PLAY_MIN_SHARE = 0.8;
export const PLAY_MIN_SECONDS = 1;
/**
 * How far past now, beyond how far ahead the display's clock was at its last heartbeat (`sentAt` against its arrival),
 * a record may end: a heartbeat's trip and the drift between two heartbeats.
 */
export const PLAY_CLOCK_MARGIN_SECONDS = 5;
/**
 * The sane window of a time a display reports (a heartbeat's `sentAt`, a shown report's `shownAt`): at most this old
 * (as old as records it keeps) and this far ahead of the server's clock; outside it, REPORTED_TIME_INVALID.
 */
export const REPORTED_TIME_MAX_AGE_DAYS = 31;
export const REPORTED_TIME_MAX_AHEAD_SECONDS = 86_400;

export const PairingCode = z
  .string({ error: 'validation.pairingCodeInvalid' })
  .trim()
  .toUpperCase()
  .regex(new RegExp(`^[${PAIRING_CODE_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`), 'validation.pairingCodeInvalid');

/** An IANA zone name the server's Intl knows. */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'validation.timeZoneInvalid');

/** POST /api/screens/pairing (public): a display asks for a code. */
export const PairingStarted = z.object({
  pairingId: z.string(),
  code: z.string(),
  /** only the display that asked knows it: polling needs it, so a code seen on the wall cannot take the token */
  pollSecret: z.string(),
  expiresAt: IsoDateTime,
});
export type PairingStarted = z.infer<typeof PairingStarted>;

export const PairingIdParams = z.object({ pairingId: Id });
export const PollPairingRequest = z.object({
  pollSecret: z.string().min(16).max(128),
  /** the display's public key (signed proof of play): bound to the screen by the poll that hands out the credential */
  publicKey: DisplayPublicKey.optional(),
});
export type PollPairingRequest = z.infer<typeof PollPairingRequest>;
/** 'paired' comes with the device cookie (Set-Cookie pc_device). */
export const PairingStatus = z.object({
  status: z.enum(['waiting', 'paired', 'expired']),
  screenId: z.string().optional(),
});
export type PairingStatus = z.infer<typeof PairingStatus>;

export const DayPart = z.object({
  days: z.array(Weekday).min(1).max(7),
  /** start ≥ end means the part crosses midnight (22:00–02:00 starts on the listed day) */
  start: TimeOfDay,
  end: TimeOfDay,
  playlistId: Id,
});
export type DayPart = z.infer<typeof DayPart>;

export const ScreenSchedule = z.object({
  parts: z.array(DayPart).max(50),
  /** what plays outside every part; null = nothing (a blank screen) */
  defaultPlaylistId: Id.nullable(),
});
export type ScreenSchedule = z.infer<typeof ScreenSchedule>;

export const ScreenAssignment = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('playlist'), playlistId: Id }),
  z.object({ kind: z.literal('file'), fileId: Id }),
  z.object({ kind: z.literal('schedule'), schedule: ScreenSchedule }),
]);
export type ScreenAssignment = z.infer<typeof ScreenAssignment>;

export const ScreenNowPlaying = z.object({
  fileId: z.string().nullable(),
  page: z.number().int().nonnegative().nullable(),
});

export const Screen = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  assignment: ScreenAssignment,
  pairedAt: IsoDateTime,
  lastSeenAt: IsoDateTime.nullable(),
  online: z.boolean(),
  nowPlaying: ScreenNowPlaying.nullable(),
  appVersion: z.string().nullable(),
  screenSize: z.object({ width: z.number().int(), height: z.number().int() }).nullable(),
  /** how the screen hangs, and its own opening hours (null = its groups', else always open) */
  rotation: ScreenRotation,
  openingHours: OpeningHours,
  /** where it is, for disaster alerts (null = its groups', else nowhere; absent from older servers) */
  place: ScreenPlace.default(null),
});
export type Screen = z.infer<typeof Screen>;
export const ScreenList = z.array(Screen);
export type ScreenList = z.infer<typeof ScreenList>;

export const ScreenName = z
  .string({ error: 'validation.screenNameRequired' })
  .trim()
  .min(1, 'validation.screenNameRequired')
  .max(100, 'validation.screenNameTooLong');

/** POST /api/screens: the member claims a code. */
export const PairScreenRequest = z.object({
  code: PairingCode,
  name: ScreenName,
  timeZone: TimeZone.default(SCREEN_DEFAULT_TIME_ZONE),
});
export type PairScreenRequest = z.infer<typeof PairScreenRequest>;

export const ScreenIdParams = z.object({ id: Id });
export const UpdateScreenRequest = z.object({
  name: ScreenName.optional(),
  timeZone: TimeZone.optional(),
  assignment: ScreenAssignment.optional(),
  rotation: ScreenRotation.optional(),
  /** null = none of its own */
  openingHours: OpeningHours.optional(),
  /** null = none of its own; checked against JMA's code tables (ALERT_PLACE_UNKNOWN) */
  place: ScreenPlace.optional(),
});
export type UpdateScreenRequest = z.infer<typeof UpdateScreenRequest>;

/**
 * What a display resolves with on its own clock besides its own assignment: its groups' assignments,
 * highest precedence first, and the takeovers that concern it (a message or a file, from when until when; null =
 * until ended). Its own groups' ids only: never their names, members or another screen's id.
 */
export const DeviceGroupInput = z.object({ id: z.string(), assignment: ScreenAssignment });
export const DeviceTakeover = z.object({
  id: z.string(),
  show: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('file'), fileId: z.string() }),
    z.object({ kind: z.literal('message'), title: z.string(), body: z.string() }),
    TakeoverAlert,
  ]),
  startsAt: IsoDateTime,
  endsAt: IsoDateTime.nullable(),
});
export type DeviceTakeover = z.infer<typeof DeviceTakeover>;

/** GET /api/screens/device/me: the paired display's own screen. */
export const DeviceScreen = z.object({
  screenId: z.string(),
  name: z.string(),
  timeZone: z.string(),
  assignment: ScreenAssignment,
  heartbeatSeconds: z.number().int().positive(),
  /** absent from older servers: resolve with resolveScreen */
  groups: z.array(DeviceGroupInput).optional(),
  takeovers: z.array(DeviceTakeover).optional(),
  /** absent from older servers (= 0 and always open): the stage's turn and the hours that apply */
  rotation: ScreenRotation.optional(),
  openingHours: OpeningHours.optional(),
});
export type DeviceScreen = z.infer<typeof DeviceScreen>;

export const HeartbeatRequest = z.object({
  appVersion: z.string().max(40),
  screenSize: z.object({ width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) }),
  nowPlaying: ScreenNowPlaying.nullable(),
  /**
   * absent from older displays: what the display shows as it last changed (sent on each change, at most
   * every SHOWN_REPORT_MIN_SECONDS, and with every heartbeat; the next drawn page of the same file only with the
   * next regular heartbeat), and whether it is closed (outside its opening hours)
   */
  shows: ShownReport.optional(),
  closed: z.boolean().optional(),
  /**
   * the display's clock when it sent this heartbeat (absent from older displays): against its arrival, how far ahead
   * its clock is, which bounds how far in the future its play records may end
   */
  sentAt: IsoDateTime.optional(),
});
export type HeartbeatRequest = z.infer<typeof HeartbeatRequest>;

export const PlayRecord = z.object({
  /** made on the device (a UUID): the same record sent twice counts once */
  id: z.uuid(),
  fileId: Id,
  /** the page number, 1 = the first page (0, sent by older displays as the page's position, is refused as no-such-page) */
  page: z.number().int().nonnegative().max(10_000),
  startedAt: IsoDateTime,
  seconds: z.number().positive().max(PLAY_MAX_SECONDS),
  /**
   * a video's showing: the second of the video it reached when it ended (after its last loop: its length when it
   * played to its end); absent for pages and from older displays. The screens service refuses a record whose second
   * lies past the video's length (PLAY_REACHED_SLACK_SECONDS allowed) as `past-video-end`.
   */
  reachedSecond: z
    .number({ error: 'validation.reachedSecondInvalid' })
    .min(0, 'validation.reachedSecondInvalid')
    .max(PLAY_MAX_SECONDS, 'validation.reachedSecondInvalid')
    .optional(),
});
export type PlayRecord = z.infer<typeof PlayRecord>;
export const PlayBatchRequest = z.object({
  plays: z.array(PlayRecord).min(1).max(PLAY_BATCH_MAX),
  /**
   * the display's signature of the batch (play-signature.ts); required once its screen has a key bound (refused
   * otherwise with PLAY_SIGNATURE_INVALID), absent from displays that have none (they appear in no proof)
   */
  signed: SignedBatchHeader.optional(),
});
export type PlayBatchRequest = z.infer<typeof PlayBatchRequest>;
/**
 * Why a play record does not count (each refused record is stored once under its id with its reason; its screen's
 * owner sees them, a seller never): it starts before the screen was paired or ends in the future; its file was not
 * in what the screen was given then; the screen's owner neither owned the file nor held a licence for it then; the
 * page does not exist; it overlaps a play the screen already counted; it was made while the screen was closed by the
 * opening hours in force then (the display plays and records nothing outside them); it names a second of its video
 * past the video's length.
 */
export const PlayRefusalReason = z.enum([
  'before-pairing',
  'ends-in-future',
  'not-assigned',
  'not-licensed',
  'no-such-page',
  'overlap',
  'closed',
  'past-video-end',
]);
export type PlayRefusalReason = z.infer<typeof PlayRefusalReason>;
export const playRefusalReasons = PlayRefusalReason.options;
/**
 * Every record of an answered batch is one the display may forget. `accepted`: taken into the intake stream, to be
 * judged behind it (counted or refused: the owner's reports say which); `duplicates`: taken already (a resend).
 * `refused` and `refusedByReason` stay in the shape for older displays and are 0 and empty: the verdicts come after
 * the answer (services/screens/README.md, "History").
 */
export const PlayBatchResponse = z.object({
  accepted: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  refused: z.number().int().nonnegative(),
  refusedByReason: z.partialRecord(PlayRefusalReason, z.number().int().positive()),
});
export type PlayBatchResponse = z.infer<typeof PlayBatchResponse>;

export const PlayReportQuery = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  screenId: Id.optional(),
  format: z.enum(['json', 'csv']).default('json'),
});
export type PlayReportQuery = z.infer<typeof PlayReportQuery>;
export const PlayReportRow = z.object({
  day: z.string(),
  screenId: z.string(),
  screenName: z.string(),
  fileId: z.string(),
  plays: z.number().int().nonnegative(),
  seconds: z.number().nonnegative(),
});
export type PlayReportRow = z.infer<typeof PlayReportRow>;
export const PlayReport = z.array(PlayReportRow);
export type PlayReport = z.infer<typeof PlayReport>;

/** The owner's refused records: per day (the screen's local day), screen and reason. */
export const RefusedPlaysQuery = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  screenId: Id.optional(),
});
export type RefusedPlaysQuery = z.infer<typeof RefusedPlaysQuery>;
export const RefusedPlaysRow = z.object({
  day: z.string(),
  screenId: z.string(),
  screenName: z.string(),
  reason: PlayRefusalReason,
  /** records refused for this reason */
  records: z.number().int().nonnegative(),
  /** the seconds those records claimed */
  seconds: z.number().nonnegative(),
});
export type RefusedPlaysRow = z.infer<typeof RefusedPlaysRow>;
export const RefusedPlays = z.array(RefusedPlaysRow);
export type RefusedPlays = z.infer<typeof RefusedPlays>;

/** A seller's view of the content they sold: plays per day and file on buyers' screens, never which screen or member. */
export const SoldPlaysQuery = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
});
export type SoldPlaysQuery = z.infer<typeof SoldPlaysQuery>;
export const SoldPlaysRow = z.object({
  day: z.string(),
  fileId: z.string(),
  /** records that lasted at least PLAY_MIN_SHARE of their page's duration (and PLAY_MIN_SECONDS) */
  plays: z.number().int().nonnegative(),
  /** the screen time credited to every counted record of the file that day (never more than the time that passed) */
  seconds: z.number().nonnegative(),
});
export type SoldPlaysRow = z.infer<typeof SoldPlaysRow>;
export const SoldPlays = z.array(SoldPlaysRow);
export type SoldPlays = z.infer<typeof SoldPlays>;

export const screensRoutes = defineRoutes([
  {
    id: 'startScreenPairing',
    method: 'post',
    path: '/api/screens/pairing',
    service: 'screens',
    auth: 'public',
    summary: 'A display asks for a pairing code (rate-limited)',
    response: PairingStarted,
    successStatus: 201,
  },
  {
    id: 'pollScreenPairing',
    method: 'post',
    path: '/api/screens/pairing/:pairingId/poll',
    service: 'screens',
    auth: 'public',
    summary: 'The display asks whether its code was claimed; when it was, the device cookie is set',
    params: PairingIdParams,
    body: PollPairingRequest,
    response: PairingStatus,
  },
  {
    id: 'pairScreen',
    method: 'post',
    path: '/api/screens',
    service: 'screens',
    auth: 'session',
    action: 'screens.manage',
    summary: 'The member pairs a display by its code, with a name and a time zone',
    body: PairScreenRequest,
    response: Screen,
    successStatus: 201,
  },
  {
    id: 'listScreens',
    method: 'get',
    path: '/api/screens',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "The member's screens with their status",
    response: ScreenList,
  },
  {
    id: 'updateScreen',
    method: 'put',
    path: '/api/screens/:id',
    service: 'screens',
    auth: 'session',
    action: 'screens.assign',
    summary:
      'Rename a screen, change its time zone or what it plays. Refusals: SCHEDULE_INVALID (400, overlapping or empty ' +
      'day parts), PLAYLIST_NOT_FOUND / FILE_NOT_FOUND (404, with details.playlistId / details.fileId: content that ' +
      'is not yours, deleted, or a bought file without a live licence; content saved a moment ago is waited for up ' +
      'to 2 s), SCREEN_NOT_FOUND, VALIDATION; nothing changes.',
    params: ScreenIdParams,
    body: UpdateScreenRequest,
    response: Screen,
  },
  {
    id: 'revokeScreen',
    method: 'delete',
    path: '/api/screens/:id',
    service: 'screens',
    auth: 'session',
    action: 'screens.manage',
    summary: 'Unpair a screen: its device credential stops working within seconds',
    params: ScreenIdParams,
    response: OkResponse,
  },
  {
    id: 'screenPlayReport',
    method: 'get',
    path: '/api/screens/plays',
    service: 'screens',
    auth: 'session',
    action: 'plays.read',
    summary: "Plays per day, screen and file of the member's screens (format=csv for a download)",
    query: PlayReportQuery,
    response: PlayReport,
  },
  {
    id: 'refusedPlays',
    method: 'get',
    path: '/api/screens/plays/refused',
    service: 'screens',
    auth: 'session',
    action: 'plays.read',
    summary: "Play records of the member's screens that were not counted, per day, screen and reason",
    query: RefusedPlaysQuery,
    response: RefusedPlays,
  },
  {
    id: 'soldPlays',
    method: 'get',
    path: '/api/screens/plays/sold',
    service: 'screens',
    auth: 'session',
    action: 'sales.read',
    summary:
      "Plays (records lasting at least 80 % of their page's duration, at least 1 s) and seconds per day of the files " +
      "the member sold, on buyers' screens: counts only, never screen or member",
    query: SoldPlaysQuery,
    response: SoldPlays,
  },
  {
    id: 'deviceScreen',
    method: 'get',
    path: '/api/screens/device/me',
    service: 'screens',
    auth: 'device',
    summary: 'The paired display reads its own screen: name, time zone and what it plays',
    response: DeviceScreen,
  },
  {
    id: 'deviceHeartbeat',
    method: 'post',
    path: '/api/screens/device/heartbeat',
    service: 'screens',
    auth: 'device',
    summary:
      'The display says it is on, what it shows (a page, a message or nothing, whether its image drew), whether it ' +
      'is closed, its app version and screen size, its clock; a page of a file the screen may not show is refused ' +
      '(REPORTED_CONTENT_NOT_ALLOWED), a shownAt or sentAt outside the sane window too (REPORTED_TIME_INVALID)',
    body: HeartbeatRequest,
    response: OkResponse,
  },
  {
    id: 'devicePlays',
    method: 'post',
    path: '/api/screens/device/plays',
    service: 'screens',
    auth: 'device',
    summary:
      'Proof of play: a batch of page-shown records, taken into a stream and judged behind it; a record id counts ' +
      'once however often sent; a record the screen was not given, not licensed for, of no such page or overlapping ' +
      'counted plays is refused (per record, in the refused report). A screen ' +
      'with a key bound takes only signed batches: PLAY_SIGNATURE_INVALID (400) for a missing or bad signature, ' +
      'PLAY_CHAIN_CONFLICT (409, details.head) when another batch holds its place in the chain; nothing is stored.',
    body: PlayBatchRequest,
    response: PlayBatchResponse,
  },
]);
