// Fleet control: groups of screens, one change for many screens, takeovers and their templates, and the
// agenda (what plays when, and why). The resolver they share with the display is in ../screen-schedule.ts.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id, IsoDateTime, OkResponse } from '../validation';
import { ScreenPlace, TakeoverAlert } from './screen-alerts';
import { ALERT_AFTER_MINUTES_DEFAULT, AlertAfterMinutes, OpeningHours } from './screen-health';
import { ScreenAssignment, TimeZone } from './screens';

/** Groups a member may have (a screen may be in several of them). */
export const SCREEN_GROUPS_MAX = 100;
/** Screens one bulk change may touch. */
export const BULK_SCREENS_MAX = 10_000;
export const TAKEOVER_TITLE_MAX = 80;
export const TAKEOVER_BODY_MAX = 500;
/** A takeover lasts at most a week when it has a set duration (it may also run until ended). */
export const TAKEOVER_MAX_MINUTES = 7 * 24 * 60;
export const TAKEOVER_TEMPLATES_MAX = 50;
/** The agenda covers this many days from its start. */
export const AGENDA_DAYS = 7;
/** An agenda starts at most this many days before or after now (else AGENDA_FROM_OUT_OF_RANGE). */
export const AGENDA_FROM_MAX_DAYS = 366;

export const GroupName = z
  .string({ error: 'validation.groupNameRequired' })
  .trim()
  .min(1, 'validation.groupNameRequired')
  .max(60, 'validation.groupNameTooLong');

export const ScreenGroup = z.object({
  id: z.string(),
  name: z.string(),
  screenIds: z.array(z.string()),
  assignment: ScreenAssignment,
  /** 0 = the highest precedence among the member's groups */
  rank: z.number().int().nonnegative(),
  createdAt: IsoDateTime,
  /** its screens' opening hours (a screen's own win), and how long a bad state lasts before an e-mail */
  openingHours: OpeningHours,
  alertAfterMinutes: z.number().int(),
  /** where its screens are (a screen's own place wins); null = not set (absent from older servers) */
  place: ScreenPlace.default(null),
});
export type ScreenGroup = z.infer<typeof ScreenGroup>;
export const ScreenGroupList = z.array(ScreenGroup);
export type ScreenGroupList = z.infer<typeof ScreenGroupList>;

export const GroupIdParams = z.object({ groupId: Id });
export const CreateGroupRequest = z.object({
  name: GroupName,
  screenIds: z.array(Id).max(BULK_SCREENS_MAX).default([]),
  assignment: ScreenAssignment.default({ kind: 'none' }),
  openingHours: OpeningHours.default(null),
  alertAfterMinutes: AlertAfterMinutes.default(ALERT_AFTER_MINUTES_DEFAULT),
  place: ScreenPlace.default(null),
});
export type CreateGroupRequest = z.infer<typeof CreateGroupRequest>;
export const UpdateGroupRequest = z.object({
  name: GroupName.optional(),
  /** the group's members, replaced whole */
  screenIds: z.array(Id).max(BULK_SCREENS_MAX).optional(),
  assignment: ScreenAssignment.optional(),
  openingHours: OpeningHours.optional(),
  alertAfterMinutes: AlertAfterMinutes.optional(),
  place: ScreenPlace.optional(),
});
export type UpdateGroupRequest = z.infer<typeof UpdateGroupRequest>;
/** Every group of the member, highest precedence first. */
export const GroupOrderRequest = z.object({ groupIds: z.array(Id).max(SCREEN_GROUPS_MAX) });
export type GroupOrderRequest = z.infer<typeof GroupOrderRequest>;

/** Which screens a bulk change touches: chosen by hand, a group's, or a filter (all given conditions hold). */
export const ScreenSelection = z.discriminatedUnion('by', [
  z.object({ by: z.literal('ids'), screenIds: z.array(Id).min(1).max(BULK_SCREENS_MAX) }),
  z.object({ by: z.literal('group'), groupId: Id }),
  z.object({
    by: z.literal('filter'),
    /** part of the name, any case */
    name: z.string().trim().max(100).optional(),
    status: z.enum(['online', 'offline']).optional(),
    groupId: Id.optional(),
  }),
]);
export type ScreenSelection = z.infer<typeof ScreenSelection>;

export const BulkChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('assign'), assignment: ScreenAssignment }),
  z.object({ kind: z.literal('add-to-group'), groupId: Id }),
  z.object({ kind: z.literal('remove-from-group'), groupId: Id }),
  z.object({ kind: z.literal('set-time-zone'), timeZone: TimeZone }),
  z.object({ kind: z.literal('unpair') }),
]);
export type BulkChange = z.infer<typeof BulkChange>;
export const BulkChangeRequest = z.object({ selection: ScreenSelection, change: BulkChange });
export type BulkChangeRequest = z.infer<typeof BulkChangeRequest>;
export const BulkChangeResult = z.object({
  changeId: z.string(),
  /** the screens the change applied to */
  screenIds: z.array(z.string()),
});
export type BulkChangeResult = z.infer<typeof BulkChangeResult>;

export const TakeoverMessage = z.object({
  kind: z.literal('message'),
  title: z
    .string({ error: 'validation.takeoverTitleRequired' })
    .trim()
    .min(1, 'validation.takeoverTitleRequired')
    .max(TAKEOVER_TITLE_MAX, 'validation.takeoverTitleTooLong'),
  body: z.string().trim().max(TAKEOVER_BODY_MAX, 'validation.takeoverBodyTooLong').default(''),
});
const TakeoverFile = z.object({ kind: z.literal('file'), fileId: Id });
/** What a member's takeover (or template) shows: a file or a typed message. */
export const MemberTakeoverContent = z.discriminatedUnion('kind', [TakeoverFile, TakeoverMessage]);
export type MemberTakeoverContent = z.infer<typeof MemberTakeoverContent>;
/** What a takeover shows: a member's file or message, or a disaster alert the feed started (screen-alerts.ts). */
export const TakeoverContent = z.discriminatedUnion('kind', [TakeoverFile, TakeoverMessage, TakeoverAlert]);
export type TakeoverContent = z.infer<typeof TakeoverContent>;
const AllScreens = z.object({ kind: z.literal('all') });
const GroupsTarget = z.object({ kind: z.literal('groups'), groupIds: z.array(Id).min(1).max(SCREEN_GROUPS_MAX) });
/** What a member targets: all their screens, or the screens of chosen groups (as they are while it runs). */
export const MemberTakeoverTarget = z.discriminatedUnion('kind', [AllScreens, GroupsTarget]);
/** ... or, for an alert the feed started, exactly the screens whose place the report concerns. */
export const TakeoverTarget = z.discriminatedUnion('kind', [
  AllScreens,
  GroupsTarget,
  z.object({ kind: z.literal('screens'), screenIds: z.array(Id).max(BULK_SCREENS_MAX) }),
]);
export type TakeoverTarget = z.infer<typeof TakeoverTarget>;
/** null = until ended */
export const TakeoverMinutes = z.number().int().min(1).max(TAKEOVER_MAX_MINUTES).nullable();

export const StartTakeoverRequest = z.union([
  z.object({ target: MemberTakeoverTarget, content: MemberTakeoverContent, minutes: TakeoverMinutes }),
  z.object({ target: MemberTakeoverTarget, templateId: Id }),
]);
export type StartTakeoverRequest = z.infer<typeof StartTakeoverRequest>;

export const Takeover = z.object({
  id: z.string(),
  target: TakeoverTarget,
  content: TakeoverContent,
  startedAt: IsoDateTime,
  /** null = until ended */
  endsAt: IsoDateTime.nullable(),
  endedAt: IsoDateTime.nullable(),
  /** the screens it covered when it started */
  screenIds: z.array(z.string()),
  templateId: z.string().nullable(),
});
export type Takeover = z.infer<typeof Takeover>;
export const TakeoverList = z.array(Takeover);
export const TakeoverIdParams = z.object({ takeoverId: Id });

export const TakeoverLogEntry = z.object({
  takeoverId: z.string(),
  action: z.enum(['start', 'end']),
  at: IsoDateTime,
  /** the member who started or ended it; null: it ended on time by itself (or the feed did: `feed`) */
  by: z.string().nullable(),
  /** absent: a member; `feed`: the disaster alert feed, with the report that started or ended it */
  source: z.enum(['member', 'feed']).optional(),
  reportId: z.string().optional(),
  screenIds: z.array(z.string()),
  content: TakeoverContent,
});
export type TakeoverLogEntry = z.infer<typeof TakeoverLogEntry>;
export const TakeoverLog = z.array(TakeoverLogEntry);

export const TakeoverTemplateRequest = z.object({
  name: GroupName,
  content: MemberTakeoverContent,
  minutes: TakeoverMinutes,
});
export type TakeoverTemplateRequest = z.infer<typeof TakeoverTemplateRequest>;
export const TakeoverTemplate = TakeoverTemplateRequest.extend({ id: z.string() });
export type TakeoverTemplate = z.infer<typeof TakeoverTemplate>;
export const TakeoverTemplateList = z.array(TakeoverTemplate);
export const TemplateIdParams = z.object({ templateId: Id });

export const ResolutionRule = z.discriminatedUnion('rule', [
  z.object({ rule: z.literal('takeover'), takeoverId: z.string() }),
  z.object({ rule: z.literal('screen') }),
  z.object({ rule: z.literal('group'), groupId: z.string() }),
  z.object({ rule: z.literal('none') }),
]);
export const ShownContent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('playlist'), playlistId: z.string() }),
  z.object({ kind: z.literal('file'), fileId: z.string() }),
  z.object({ kind: z.literal('message'), title: z.string(), body: z.string() }),
  TakeoverAlert,
  z.object({ kind: z.literal('none') }),
]);
export const AgendaQuery = z.object({ from: IsoDateTime.optional() });
export const ScreenAgendaEntry = z.object({
  from: IsoDateTime,
  to: IsoDateTime,
  playing: ShownContent,
  because: ResolutionRule,
  /** bought files in what plays whose licence has ended: they no longer show */
  stopped: z.array(z.string()),
});
export const ScreenAgenda = z.object({
  screenId: z.string(),
  timeZone: z.string(),
  from: IsoDateTime,
  to: IsoDateTime,
  entries: z.array(ScreenAgendaEntry),
  licenceEnds: z.array(z.object({ fileId: z.string(), at: IsoDateTime })),
});
export type ScreenAgenda = z.infer<typeof ScreenAgenda>;
/** A group's agenda: each of its screens' (their own assignments and other groups count too). */
export const GroupAgenda = z.object({ groupId: z.string(), screens: z.array(ScreenAgenda) });
export type GroupAgenda = z.infer<typeof GroupAgenda>;
export const ScreenAgendaParams = z.object({ id: Id });

const refusals =
  ' Refusals: SCREEN_NOT_FOUND (a screen not yours), SCREEN_GROUP_NOT_FOUND (a group not yours), PLAYLIST_NOT_FOUND / ' +
  'FILE_NOT_FOUND (content that is not yours or gone), VALIDATION; FLEET_BUSY (409) when another change of your ' +
  'fleet held it for over 15 s (changes of one member run one at a time across instances); nothing changes.';

export const screenFleetRoutes = defineRoutes([
  {
    id: 'listScreenGroups',
    method: 'get',
    path: '/api/screens/groups',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "The member's groups of screens, highest precedence first",
    response: ScreenGroupList,
  },
  {
    id: 'createScreenGroup',
    method: 'post',
    path: '/api/screens/groups',
    service: 'screens',
    auth: 'session',
    action: 'groups.write',
    summary: `Create a group (name, members, assignment). SCREEN_GROUP_LIMIT, SCREEN_GROUP_NAME_TAKEN.${refusals}`,
    body: CreateGroupRequest,
    response: ScreenGroup,
    successStatus: 201,
  },
  {
    id: 'setScreenGroupOrder',
    method: 'put',
    path: '/api/screens/groups/order',
    service: 'screens',
    auth: 'session',
    action: 'groups.write',
    summary: `Set the groups' precedence (every group of the member once, highest first).${refusals}`,
    body: GroupOrderRequest,
    response: ScreenGroupList,
  },
  {
    id: 'updateScreenGroup',
    method: 'put',
    path: '/api/screens/groups/:groupId',
    service: 'screens',
    auth: 'session',
    action: 'groups.write',
    summary: `Rename a group, replace its members or its assignment. SCREEN_GROUP_NAME_TAKEN.${refusals}`,
    params: GroupIdParams,
    body: UpdateGroupRequest,
    response: ScreenGroup,
  },
  {
    id: 'deleteScreenGroup',
    method: 'delete',
    path: '/api/screens/groups/:groupId',
    service: 'screens',
    auth: 'session',
    action: 'groups.write',
    summary: 'Delete a group (its screens stay paired). SCREEN_GROUP_NOT_FOUND',
    params: GroupIdParams,
    response: OkResponse,
  },
  {
    id: 'groupAgenda',
    method: 'get',
    path: '/api/screens/groups/:groupId/agenda',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary:
      'The next 7 days of each screen of a group: what plays when and why (from = start, default now, at most 366 ' +
      'days away: AGENDA_FROM_OUT_OF_RANGE)',
    params: GroupIdParams,
    query: AgendaQuery,
    response: GroupAgenda,
  },
  {
    id: 'bulkScreenChange',
    method: 'post',
    path: '/api/screens/bulk',
    service: 'screens',
    auth: 'session',
    action: 'screens.assign',
    summary:
      'One change (assign, add to or remove from a group, time zone, unpair) to many screens, all or nothing: ' +
      `every screen and the change are checked before anything is written; one event for the change.${refusals}`,
    body: BulkChangeRequest,
    response: BulkChangeResult,
  },
  {
    id: 'listTakeovers',
    method: 'get',
    path: '/api/screens/takeovers',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "The member's running and scheduled takeovers",
    response: TakeoverList,
  },
  {
    id: 'startTakeover',
    method: 'post',
    path: '/api/screens/takeovers',
    service: 'screens',
    auth: 'session',
    action: 'takeovers.start',
    summary:
      'Take over all screens or chosen groups with a file or a typed message, for some minutes or until ended (or ' +
      `from a template). TAKEOVER_OVERLAP when one already runs on any of those screens; TAKEOVER_TEMPLATE_NOT_FOUND.${refusals}`,
    body: StartTakeoverRequest,
    response: Takeover,
    successStatus: 201,
  },
  {
    id: 'endTakeover',
    method: 'delete',
    path: '/api/screens/takeovers/:takeoverId',
    service: 'screens',
    auth: 'session',
    action: 'takeovers.end',
    summary: 'End a takeover now (logged). TAKEOVER_NOT_FOUND (not yours, or already over)',
    params: TakeoverIdParams,
    response: Takeover,
  },
  {
    id: 'takeoverLog',
    method: 'get',
    path: '/api/screens/takeovers/log',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "Every start and end of the member's takeovers, newest first: who, when, which screens, what",
    response: TakeoverLog,
  },
  {
    id: 'listTakeoverTemplates',
    method: 'get',
    path: '/api/screens/takeover-templates',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "The member's saved takeovers",
    response: TakeoverTemplateList,
  },
  {
    id: 'createTakeoverTemplate',
    method: 'post',
    path: '/api/screens/takeover-templates',
    service: 'screens',
    auth: 'session',
    action: 'takeover-templates.write',
    summary: `Save a takeover (name, content, minutes). TAKEOVER_TEMPLATE_LIMIT when there are too many.${refusals}`,
    body: TakeoverTemplateRequest,
    response: TakeoverTemplate,
    successStatus: 201,
  },
  {
    id: 'updateTakeoverTemplate',
    method: 'put',
    path: '/api/screens/takeover-templates/:templateId',
    service: 'screens',
    auth: 'session',
    action: 'takeover-templates.write',
    summary: `Change a saved takeover. TAKEOVER_TEMPLATE_NOT_FOUND.${refusals}`,
    params: TemplateIdParams,
    body: TakeoverTemplateRequest,
    response: TakeoverTemplate,
  },
  {
    id: 'deleteTakeoverTemplate',
    method: 'delete',
    path: '/api/screens/takeover-templates/:templateId',
    service: 'screens',
    auth: 'session',
    action: 'takeover-templates.write',
    summary: 'Delete a saved takeover. TAKEOVER_TEMPLATE_NOT_FOUND',
    params: TemplateIdParams,
    response: OkResponse,
  },
  {
    id: 'screenAgenda',
    method: 'get',
    path: '/api/screens/:id/agenda',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary:
      'The next 7 days of a screen: what plays from when to when and why (takeover, screen, group), gaps, and licence ' +
      'ends of bought content (from = start, default now, at most 366 days away). SCREEN_NOT_FOUND, ' +
      'AGENDA_FROM_OUT_OF_RANGE',
    params: ScreenAgendaParams,
    query: AgendaQuery,
    response: ScreenAgenda,
  },
]);
