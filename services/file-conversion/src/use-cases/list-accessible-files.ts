import type { AccessibleFile } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { contentAccess } from '../domain';
import { contentFile } from './reader';
import { toAccessibleFile } from './present';

/** What the member may play: their own files (newest first), then the files they hold a live licence for. */
export async function listAccessibleFiles(ctx: ServiceContext, userId: string): Promise<AccessibleFile[]> {
  const repo = ctx.data.files;
  const [own, licences] = await Promise.all([repo.listByOwner(userId), repo.activeLicencesOf(userId)]);
  const licensed = await repo.listByIds([...new Set(licences.map((l) => l.fileId))]);
  const reader = { kind: 'member', userId } as const;
  const now = Date.now();
  const bought = licensed
    .filter((f) => f.userId !== userId)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .flatMap((f) => {
      const decision = contentAccess({ reader, files: [contentFile(f)], licences, use: 'play', now });
      return decision.access === 'licence' ? [toAccessibleFile(f, 'purchased', decision.licenceExpiresAt)] : [];
    });
  return [...own.map((f) => toAccessibleFile(f, 'owner', null)), ...bought];
}
