// Fleet health: what each display shows and whether it is right, incidents and their e-mails, rotation
// and opening hours. The rules (open or closed, frozen, wrong, broken, alert grouping) are in ../screen-health.ts.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id, IsoDateTime } from '../validation';
import { TimeOfDay, Weekday } from './wall-time';

/** A page asks to stay at most a day (as PLAY_MAX_SECONDS in screens.ts, which imports this file). */
const HOLD_SECONDS_MAX = 86_400;
const ScreenIdParams = z.object({ id: Id });

/** How a screen hangs: the display turns its stage by this many degrees clockwise. */
export const SCREEN_ROTATIONS = [0, 90, 180, 270] as const;
export const ScreenRotation = z
  .number({ error: 'validation.rotationInvalid' })
  .refine(
    (n): n is 0 | 90 | 180 | 270 => (SCREEN_ROTATIONS as readonly number[]).includes(n),
    'validation.rotationInvalid',
  );
export type ScreenRotation = (typeof SCREEN_ROTATIONS)[number];

/** Spans of opening hours per screen or group. */
export const OPENING_SPANS_MAX = 28;
/**
 * Open on the listed weekdays from start to end in the screen's time zone; start > end crosses midnight (22:00–02:00
 * opens on the listed day); start = end is refused (an empty span says nothing: 00:00–24:00 is a whole day).
 */
export const OpeningSpan = z
  .object({ days: z.array(Weekday).min(1).max(7), start: TimeOfDay, end: TimeOfDay })
  .refine((s) => s.start !== s.end, 'validation.openingSpanEmpty');
export type OpeningSpan = z.infer<typeof OpeningSpan>;
/** null = no hours of its own (a screen takes its first group's hours that has some; none at all = always open). */
export const OpeningHours = z.array(OpeningSpan).max(OPENING_SPANS_MAX, 'validation.openingHoursTooMany').nullable();
export type OpeningHours = z.infer<typeof OpeningHours>;

/** Alert thresholds, per group (a screen in several takes the smallest; a screen in none, the default). */
export const ALERT_AFTER_MINUTES_DEFAULT = 5;
export const ALERT_AFTER_MINUTES_MIN = 1;
export const ALERT_AFTER_MINUTES_MAX = 1440;
export const AlertAfterMinutes = z
  .number({ error: 'validation.alertAfterInvalid' })
  .int('validation.alertAfterInvalid')
  .min(ALERT_AFTER_MINUTES_MIN, 'validation.alertAfterInvalid')
  .max(ALERT_AFTER_MINUTES_MAX, 'validation.alertAfterInvalid');

/** A picture unchanged this long past what its page asked for is frozen. */
export const HEALTH_FROZEN_SLACK_SECONDS = 30;
/** Showing something other than what the resolver says, for longer than this, is wrong content. */
export const HEALTH_WRONG_AFTER_SECONDS = 60;
/** Incidents that open within this window of the first unsent one go in one e-mail (a site losing its network). */
export const ALERT_GROUP_WINDOW_SECONDS = 60;
/** A playing video whose time has not advanced this long is frozen (the display reports it, then moves on). */
export const VIDEO_FROZEN_SECONDS = 5;
/** A display sends a report when its picture changes, at most this often (the last change wins). */
export const SHOWN_REPORT_MIN_SECONDS = 2;
/** Screens one alert e-mail lists by name (the rest are counted). */
export const ALERT_MAIL_SCREENS_MAX = 20;

/** Why an image did not draw: the page address answered 403/404, another error, or the bytes did not decode. */
export const ImageError = z.enum(['forbidden', 'not-found', 'load-failed', 'decode-failed']);
export type ImageError = z.infer<typeof ImageError>;

/**
 * What the display shows, as it last changed: a page (with the time it appeared, how long its page asks to stay,
 * whether the image drew and why not), a takeover's message, or nothing (blank: nothing assigned, or closed).
 */
export const ShownReport = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('page'),
    fileId: Id,
    /** 1 = the first page */
    page: z.number().int().min(1).max(10_000),
    shownAt: IsoDateTime,
    holdSeconds: z.number().positive().max(HOLD_SECONDS_MAX),
    loaded: z.boolean(),
    error: ImageError.nullable(),
    /**
     * a video's page: the second of the video on screen (when the report was sent), and `frozen` when its time stopped
     * advancing while it should play (VIDEO_FROZEN_SECONDS); absent for pages and from older displays
     */
    video: z
      .object({
        second: z.number().min(0).max(HOLD_SECONDS_MAX),
        frozen: z.boolean().optional(),
      })
      .optional(),
  }),
  /** a takeover without a file: a typed message, or a disaster alert */
  z.object({ kind: z.literal('message'), takeoverId: Id, shownAt: IsoDateTime }),
  z.object({ kind: z.literal('blank'), shownAt: IsoDateTime }),
]);
export type ShownReport = z.infer<typeof ShownReport>;

/**
 * A screen's health: closed (outside its opening hours: quiet, whatever else), offline (no heartbeat), broken (its
 * image failed), frozen (its picture outstayed its page), wrong (not what it should play now, for over a minute), ok.
 */
export const ScreenHealthState = z.enum(['offline', 'closed', 'broken', 'frozen', 'wrong', 'ok']);
export type ScreenHealthState = z.infer<typeof ScreenHealthState>;
/** The states that open incidents and send e-mails. */
export const IncidentState = z.enum(['offline', 'broken', 'frozen', 'wrong']);
export type IncidentState = z.infer<typeof IncidentState>;

/** What the resolver says a screen should show now (a playlist by its id: any of its files is right). */
export const ExpectedShow = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('file'), fileId: z.string() }),
  z.object({ kind: z.literal('playlist'), playlistId: z.string() }),
  z.object({ kind: z.literal('message'), takeoverId: z.string() }),
]);
export type ExpectedShow = z.infer<typeof ExpectedShow>;

export const ScreenHealth = z.object({
  screenId: z.string(),
  name: z.string(),
  state: ScreenHealthState,
  /** when the state began (null for ok, or offline and never seen) */
  since: IsoDateTime.nullable(),
  lastSeenAt: IsoDateTime.nullable(),
  shows: ShownReport.nullable(),
  expected: ExpectedShow,
  /** the last image that failed on this screen (kept until another fails) */
  lastImageError: z
    .object({ error: ImageError, fileId: z.string(), page: z.number().int(), at: IsoDateTime })
    .nullable(),
  rotation: ScreenRotation,
  /** the hours that apply (its own, else its first group's with hours; null = always open) */
  openingHours: OpeningHours,
  groupIds: z.array(z.string()),
  /** minutes a bad state lasts before it is an incident and mailed */
  alertAfterMinutes: z.number().int(),
});
export type ScreenHealth = z.infer<typeof ScreenHealth>;

export const FLEET_HEALTH_PAGE_MAX = 200;
export const FleetHealthQuery = z.object({
  /** 'online' = every state but offline */
  state: z.union([ScreenHealthState, z.literal('online')]).optional(),
  groupId: Id.optional(),
  /** part of the name, any case */
  q: z.string().trim().max(100).optional(),
  /** the opaque cursor of the previous page */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(FLEET_HEALTH_PAGE_MAX).default(50),
});
export type FleetHealthQuery = z.infer<typeof FleetHealthQuery>;
export const FleetHealthCounts = z.object({
  total: z.number().int().nonnegative(),
  online: z.number().int().nonnegative(),
  offline: z.number().int().nonnegative(),
  closed: z.number().int().nonnegative(),
  broken: z.number().int().nonnegative(),
  frozen: z.number().int().nonnegative(),
  wrong: z.number().int().nonnegative(),
  ok: z.number().int().nonnegative(),
});
export type FleetHealthCounts = z.infer<typeof FleetHealthCounts>;
/** Counts over the member's screens matching groupId and q (not state); items: that page of the filtered list, by name. */
export const FleetHealth = z.object({
  counts: FleetHealthCounts,
  items: z.array(ScreenHealth),
  nextCursor: z.string().nullable(),
});
export type FleetHealth = z.infer<typeof FleetHealth>;

/** A bad state that lasted past its threshold: opened then, ended when the screen recovered (or was unpaired). */
export const ScreenIncident = z.object({
  id: z.string(),
  screenId: z.string(),
  state: IncidentState,
  /** when the bad state began */
  startedAt: IsoDateTime,
  /** when it passed the threshold */
  openedAt: IsoDateTime,
  endedAt: IsoDateTime.nullable(),
  /** when the e-mails went (null: not sent, e.g. still within the grouping window, or the screen was closed) */
  alertedAt: IsoDateTime.nullable(),
  recoveryAlertedAt: IsoDateTime.nullable(),
});
export type ScreenIncident = z.infer<typeof ScreenIncident>;
export const INCIDENTS_LIST_MAX = 100;
export const ScreenIncidentList = z.array(ScreenIncident);
export type ScreenIncidentList = z.infer<typeof ScreenIncidentList>;

export const screenHealthRoutes = defineRoutes([
  {
    id: 'fleetHealth',
    method: 'get',
    path: '/api/screens/health',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary:
      "The member's screens' health: counts per state and one page of screens (filter by state, group, name), " +
      'computed on the server from what each display reports',
    query: FleetHealthQuery,
    response: FleetHealth,
  },
  {
    id: 'screenIncidents',
    method: 'get',
    path: '/api/screens/:id/incidents',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "A screen's incident log, newest first (at most 100)",
    params: ScreenIdParams,
    response: ScreenIncidentList,
  },
]);
