import type { AccessibleFile } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { contentAccess } from '../domain';
import { contentFile } from './reader';
import { toAccessibleFile } from './present';

/** What the member may play: their own files (newest first), then the files they hold a live licence for. */
export async function listAccessibleFiles(ctx: ServiceContext, userId: string): Promise<AccessibleFile[]> {
  const repo = ctx.data.files;
  const now = ctx.clock.now();
  const [own, licences] = await Promise.all([repo.listByOwner(userId), repo.activeLicencesOf(userId, now)]);
  const ids = [...new Set(licences.map((l) => l.fileId))];
  const [licensed, rights] = await Promise.all([repo.listByIds(ids), repo.copyrightInfoOf(ids)]);
  // a bought file says whose it is, as its listing did
  const rightsOf = (fileId: string) => {
    const r = rights.find((c) => c.fileId === fileId);
    return r?.authorName
      ? { authorName: r.authorName, companyName: r.companyName || null, copyrightText: r.copyrightText || null }
      : null;
  };
  const reader = { kind: 'member', userId } as const;
  const bought = licensed
    .filter((f) => f.userId !== userId)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .flatMap((f) => {
      const decision = contentAccess({ reader, files: [contentFile(f)], licences, use: 'play', now: now.getTime() });
      return decision.access === 'licence'
        ? [{ ...toAccessibleFile(f, 'purchased', decision.licenceExpiresAt), copyright: rightsOf(f._id) }]
        : [];
    });
  return [...own.map((f) => toAccessibleFile(f, 'owner', null)), ...bought];
}
