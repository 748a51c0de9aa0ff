// Who reads, as the content-access rule (domain/content-access.ts) sees them, and the one way every read asks it.
import type { ServiceContext } from '../context';
import type { FileDoc } from '../data';
import { type ContentFile, isOnSale, type Reader } from '../domain';

/** Who calls: a member, or a paired display (its screen and that screen's owner, as the gateway verified them). */
export type Caller = { kind: 'member'; userId: string } | { kind: 'device'; screenId: string; ownerId: string };

/**
 * The caller as a reader: a display with what its screen plays (from this instance's memory, data/screen-views.ts,
 * unless `fresh`: then read again by `_id`), and whether it came from memory.
 */
export async function readerOf(
  ctx: ServiceContext,
  caller: Caller,
  fresh: boolean,
): Promise<{ reader: Exclude<Reader, { kind: 'preview' }>; remembered: boolean }> {
  if (caller.kind === 'member') return { reader: caller, remembered: false };
  const { view, remembered } = await ctx.data.screenViews.get(caller.screenId, fresh);
  return { reader: { kind: 'device', ownerId: caller.ownerId, screen: view }, remembered };
}

/**
 * Decides with what is remembered (what a screen plays, which files show an image) and, when that refuses, once more
 * with everything read afresh: a remembered read never refuses (a file assigned or converted a moment ago).
 */
export async function decideAfresh<D extends object>(
  attempt: (fresh: boolean) => Promise<{ decision: D; remembered: boolean }>,
): Promise<D> {
  const first = await attempt(false);
  // a refusal, of the content rule or the playlist rule, says why (`refusal`)
  if (!('refusal' in first.decision) || !first.remembered) return first.decision;
  return (await attempt(true)).decision;
}

export const contentFile = (f: FileDoc): ContentFile => ({ id: f._id, ownerId: f.userId, onSale: isOnSale(f) });
