import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FileDoc } from '../data';
import { contentAccess } from '../domain';
import { contentFile } from './reader';

export interface PlayableFile {
  file: FileDoc;
  access: 'owner' | 'purchased';
  licenceExpiresAt: Date | null;
}

/** The files among `ids` the member may play now (own, or bought within the licence), with their licence's end. */
export async function playableFiles(
  ctx: ServiceContext,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, PlayableFile>> {
  return playableAmong(ctx, userId, ids.length ? await ctx.data.files.listByIds([...ids]) : []);
}

/** As playableFiles, with the files already read (a display's reads take them from memory: device-reads.ts). */
export async function playableAmong(
  ctx: ServiceContext,
  userId: string,
  docs: readonly FileDoc[],
): Promise<Map<string, PlayableFile>> {
  const foreign = docs.filter((f) => f.userId !== userId).map((f) => f._id);
  const now = ctx.clock.now();
  const licences = foreign.length ? await ctx.data.files.activeLicencesFor(userId, foreign, now) : [];
  const reader = { kind: 'member', userId } as const;
  const out = new Map<string, PlayableFile>();
  for (const f of docs) {
    const decision = contentAccess({ reader, files: [contentFile(f)], licences, use: 'play', now: now.getTime() });
    if (decision.access === 'owner') out.set(f._id, { file: f, access: 'owner', licenceExpiresAt: null });
    else if (decision.access === 'licence') {
      out.set(f._id, { file: f, access: 'purchased', licenceExpiresAt: decision.licenceExpiresAt });
    }
  }
  return out;
}

/** 404 FILE_NOT_FOUND (as for a file that does not exist) unless the member may play every one of `ids`. */
export async function requirePlayable(
  ctx: ServiceContext,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, PlayableFile>> {
  const ok = await playableFiles(ctx, userId, ids);
  const missing = ids.find((id) => !ok.has(id));
  if (missing !== undefined) throw new AppError('FILE_NOT_FOUND', { details: { fileId: missing } });
  return ok;
}
