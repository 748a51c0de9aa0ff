import { subjects } from '@pagecast/contracts';
import type { EnvelopeOf } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { changeApplies, changeFromSnapshot, type ListingChange } from '../domain/listing';

/** The file events the listings follow (the consumer's subjects). */
export const fileEventSubjects = [
  subjects.filePublished,
  subjects.fileUpdated,
  subjects.fileUnpublished,
  subjects.fileDeleted,
] as const;

/** One of them: checking its `type` narrows its `data` (the kit's dispatcher hands this envelope). */
export type FileEvent = EnvelopeOf<(typeof fileEventSubjects)[number]>;

/** Keeps the listing read model in step with file-conversion: on sale, changed, off sale (unpublished, disabled), deleted. */
export async function applyFileEvent(ctx: Pick<ServiceContext, 'data'>, event: FileEvent): Promise<boolean> {
  let change: ListingChange;
  switch (event.type) {
    case subjects.filePublished:
      change = changeFromSnapshot({ ...event.data, status: 'private', isPublished: true });
      break;
    case subjects.fileUpdated:
      change = changeFromSnapshot(event.data);
      break;
    case subjects.fileUnpublished:
      change = { kind: 'unlisted', fileId: event.data.fileId, at: new Date(event.data.updatedAt) };
      break;
    case subjects.fileDeleted:
      change = { kind: 'deleted', fileId: event.data.fileId, at: new Date(event.data.deletedAt) };
      break;
  }
  return ctx.data.listings.apply(change, (stored) => changeApplies(stored, change));
}
