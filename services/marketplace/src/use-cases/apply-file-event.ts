import { type EventEnvelope, subjects } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { changeApplies, changeFromSnapshot, type ListingChange } from '../domain/listing';

export type FileEvent = EventEnvelope<
  | typeof subjects.filePublished
  | typeof subjects.fileUpdated
  | typeof subjects.fileUnpublished
  | typeof subjects.fileDeleted
>;

/** Keeps the listing read model in step with file-conversion: on sale, changed, off sale (unpublished, disabled), deleted. */
export async function applyFileEvent(ctx: Pick<ServiceContext, 'data'>, event: FileEvent): Promise<boolean> {
  let change: ListingChange;
  switch (event.type) {
    case subjects.filePublished: {
      const d = event.data as EventEnvelope<typeof subjects.filePublished>['data'];
      change = changeFromSnapshot({ ...d, status: 'private', isPublished: true });
      break;
    }
    case subjects.fileUpdated:
      change = changeFromSnapshot(event.data as EventEnvelope<typeof subjects.fileUpdated>['data']);
      break;
    case subjects.fileUnpublished: {
      const d = event.data as EventEnvelope<typeof subjects.fileUnpublished>['data'];
      change = { kind: 'unlisted', fileId: d.fileId, at: new Date(d.updatedAt) };
      break;
    }
    default: {
      const d = event.data as EventEnvelope<typeof subjects.fileDeleted>['data'];
      change = { kind: 'deleted', fileId: d.fileId, at: new Date(d.deletedAt) };
    }
  }
  return ctx.data.listings.apply(change, (stored) => changeApplies(stored, change));
}
