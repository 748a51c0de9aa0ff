import type { ServiceContext } from '../context';
import { actingUser, type ContentDecision, type ContentFile, contentAccess } from '../domain';
import { type Caller, decideAfresh, readerOf } from './reader';

/**
 * May the caller see this page image, and how long may the answer be kept (domain/content-access.ts)? An image is
 * content-addressed: the files that show it are asked about (which ones is remembered briefly, as is what a display's
 * screen plays; a refusal reads both afresh). The owner of one of them needs no licence read.
 */
export async function imageAccess(ctx: ServiceContext, caller: Caller, hash: string): Promise<ContentDecision> {
  return decideAfresh(async (fresh) => {
    const [who, showing] = await Promise.all([readerOf(ctx, caller, fresh), ctx.data.imageFiles.get(hash, fresh)]);
    const userId = actingUser(who.reader);
    const files = new Map<string, ContentFile>();
    for (const p of showing.files) files.set(p.fileId, { id: p.fileId, ownerId: p.ownerId });
    const own = [...files.values()].some((f) => f.ownerId === userId);
    const now = ctx.clock.now();
    const licences =
      own || files.size === 0 ? [] : await ctx.data.files.activeLicencesFor(userId, [...files.keys()], now);
    return {
      decision: contentAccess({
        reader: who.reader,
        files: [...files.values()],
        licences,
        use: 'play',
        now: now.getTime(),
      }),
      remembered: who.remembered || showing.remembered,
    };
  });
}
