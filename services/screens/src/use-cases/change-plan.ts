// A change of what screens play, checked and not yet made: the one shape update-screen, the group calls and bulk
// changes take, so doing a change and proposing it (approval) run the same checks. `objects` and the two worlds are
// what a proposal shows (the audit log's difference, and the agenda before and after); `apply` makes it.
import type { AuditActor } from '@pagecast/service-kit';
import type { FleetDoc, GroupDoc, ScreenRecord } from '../data';

/** The fleet as a change reads it: the screens it touches, every group of the owner, the owner's order. */
export interface FleetState {
  screens: ScreenRecord[];
  groupsById: ReadonlyMap<string, GroupDoc>;
  fleet: FleetDoc;
}

export interface ChangePlan<R> {
  /** each object the change writes, as the audit log keeps it: now, and as it would be */
  objects: Array<{ type: 'screen' | 'group' | 'group-order'; id: string; before: unknown; after: unknown }>;
  /** the touched screens (the same ids in both), the groups and order, now and as they would be */
  before: FleetState;
  after: FleetState;
  /** makes the change (the checks above were made; nothing was written before this) */
  apply(actor: AuditActor): Promise<R>;
}

/** What applying a proposal's change needs beyond the request: ids derived from the proposal (a re-apply finds them). */
export interface PlanOptions {
  /** the proposal this change is made for: a created group's id, a bulk change's id derive from it */
  proposalId?: string;
  /** applied again after a crash: what the first attempt made is found, not refused */
  resume?: boolean;
}
