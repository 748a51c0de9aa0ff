import {
  type AccessibleFile,
  type DashboardStats,
  FileIdParams,
  type FileCopyright,
  PublishSettingsRequest,
  type PurchasersResponse,
  SignageQuery,
  UpdateDisplayModeRequest,
  UpdateDurationRequest,
  UpdateFileRequest,
} from '@pagecast/contracts';
import { AppError, parseWith, requireIdentity } from '@pagecast/service-kit';
import { type Request, Router } from 'express';
import type { FileDoc } from '../data';
import { accessTo, canPublish, fileLimitFor, startOfMonth } from '../domain';
import { announceFileChange, filePublishedData, fileUpdatedData } from '../events/publish';
import type { ServiceContext } from '../context';
import type { PlayerAccess } from './player-identity';
import { deleteFile } from '../use-cases/delete-file';
import { toAccessibleFile, toFilePage, toFileSummary } from './present';
import { handleUpload } from './upload';

const notFound = () => new AppError('FILE_NOT_FOUND');

export function filesRouter(
  ctx: ServiceContext,
  player: PlayerAccess,
  onFileDeleted: (keys: string[]) => void,
): Router {
  const router = Router();
  const repo = ctx.data.files;

  /** The caller's own file, or 404 (another member's id gets the same answer as a missing one). */
  const ownFile = async (req: Request): Promise<FileDoc> => {
    const { userId } = requireIdentity(req);
    const { id } = parseWith(FileIdParams, req.params);
    const file = await repo.findOwned(id, userId);
    if (!file) throw notFound();
    return file;
  };

  /** Owner, or licence holder in signage mode (or that owner's paired screen, for a file assigned to it); anonymous → 401, anyone else → 404. */
  const readableFile = async (req: Request) => {
    const member = req.device ? undefined : requireIdentity(req).userId;
    const { id } = parseWith(FileIdParams, req.params);
    const userId = member ?? (await player.userId(req, { fileId: id }));
    const { signage_mode } = parseWith(SignageQuery, req.query);
    const file = await repo.findById(id);
    if (!file) throw notFound();
    const signageMode = signage_mode === 'true';
    const licence =
      file.userId !== userId && signageMode
        ? (await repo.activeLicencesOf(userId)).find((l) => l.fileId === file._id)
        : undefined;
    const access = accessTo(file, userId, { signageMode, hasActiveLicence: licence !== undefined });
    if (access === 'none') throw notFound();
    return { file, access, licence };
  };

  const changed = async (file: FileDoc | null) => {
    if (!file) throw notFound();
    await announceFileChange(ctx.outbox, file);
    return toFileSummary(file);
  };

  router.get('/api/files', async (req, res) => {
    const { userId } = requireIdentity(req);
    const own = await repo.listByOwner(userId);
    const sales = await repo.salesOf(own.map((f) => f._id));
    res.json(own.map((f) => ({ ...toFileSummary(f), ...(sales.get(f._id) ?? { copiesSold: 0, pointsEarned: 0 }) })));
  });

  router.get('/api/files/accessible', async (req, res) => {
    const { userId } = requireIdentity(req);
    const [own, licences] = await Promise.all([repo.listByOwner(userId), repo.activeLicencesOf(userId)]);
    const latest = new Map<string, Date>();
    for (const l of licences) {
      const prev = latest.get(l.fileId);
      if (!prev || prev < l.expiresAt) latest.set(l.fileId, l.expiresAt);
    }
    const bought = (await repo.listByIds([...latest.keys()])).filter((f) => f.userId !== userId);
    const out: AccessibleFile[] = [
      ...own.map((f) => toAccessibleFile(f, 'owner', null)),
      ...bought
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
        .map((f) => toAccessibleFile(f, 'purchased', latest.get(f._id) ?? null)),
    ];
    res.json(out);
  });

  router.post('/api/files/upload', (req, res) => handleUpload(ctx, req, res));

  router.get('/api/files/:id/copyright', async (req, res) => {
    const file = await ownFile(req);
    const info = await repo.getCopyrightInfo(file._id);
    // Nothing recorded for this file: the member's default author profile, which the publish form offers.
    const source = info ?? (await repo.defaultAuthorProfile(file.userId));
    const body: FileCopyright = {
      authorName: source?.authorName ?? null,
      companyName: source?.companyName ?? null,
      copyrightText: source?.copyrightText ?? null,
    };
    res.json(body);
  });

  router.put('/api/files/:id/publish', async (req, res) => {
    const file = await ownFile(req);
    const body = parseWith(PublishSettingsRequest, req.body);
    if (body.isPublished && !canPublish(file.status)) throw new AppError('FILE_NOT_READY');
    if (body.copyrightInfo) {
      await repo.setCopyrightInfo(file._id, body.copyrightInfo);
      if (body.isPublished) await repo.setDefaultAuthorProfile(file.userId, body.copyrightInfo);
    }
    if (body.isPublished) await repo.recordUserConfirmation(file._id);
    const updated = await repo.updateOwned(file._id, file.userId, {
      isPublished: body.isPublished,
      publishPrice: body.isPublished ? (body.publishPrice ?? null) : (body.publishPrice ?? file.publishPrice),
    });
    if (!updated) throw notFound();
    await ctx.outbox.add('files.file.updated.v1', fileUpdatedData(updated));
    const listing = filePublishedData(updated);
    if (listing) await ctx.outbox.add('files.file.published.v1', listing);
    else if (file.isPublished && !updated.isPublished) {
      await ctx.outbox.add('files.file.unpublished.v1', {
        fileId: file._id,
        ownerId: file.userId,
        updatedAt: updated.updatedAt.toISOString(),
      });
    }
    res.json(toFileSummary(updated));
  });

  router.get('/api/files/:id/purchasers', async (req, res) => {
    const file = await ownFile(req);
    const count = await repo.activePurchaserCount(file._id);
    const body: PurchasersResponse = { hasActivePurchasers: count > 0, activePurchaserCount: count };
    res.json(body);
  });

  router.delete('/api/files/:id', async (req, res) => {
    const { userId } = requireIdentity(req);
    const { id } = parseWith(FileIdParams, req.params);
    await deleteFile(ctx, userId, id, onFileDeleted);
    res.json({ ok: true });
  });

  router.put('/api/files/:id/duration', async (req, res) => {
    const file = await ownFile(req);
    const { displayDuration } = parseWith(UpdateDurationRequest, req.body);
    // pages first, then the file: the file's new version is what tells readers its pages changed (repo.playerPages)
    await repo.setPagesDuration(file._id, displayDuration);
    const updated = await repo.updateOwned(file._id, file.userId, { displayDuration });
    res.json(await changed(updated));
  });

  router.put('/api/files/:id/display-mode', async (req, res) => {
    const file = await ownFile(req);
    const { displayMode } = parseWith(UpdateDisplayModeRequest, req.body);
    res.json(await changed(await repo.updateOwned(file._id, file.userId, { displayMode })));
  });

  router.put('/api/files/:id', async (req, res) => {
    const file = await ownFile(req);
    const body = parseWith(UpdateFileRequest, req.body ?? {});
    const set: Partial<FileDoc> = {};
    if (body.title !== undefined) set.title = body.title;
    if (body.displayDuration !== undefined) set.displayDuration = body.displayDuration;
    if (body.displayMode !== undefined) set.displayMode = body.displayMode;
    if (body.tags !== undefined) set.tags = body.tags;
    // pages first, then the file (see the duration route)
    if (body.displayDuration !== undefined) await repo.setPagesDuration(file._id, body.displayDuration);
    const updated = await repo.updateOwned(file._id, file.userId, set);
    res.json(await changed(updated));
  });

  router.get('/api/files/:id', async (req, res) => {
    const { file, access, licence } = await readableFile(req);
    res.json(toAccessibleFile(file, access === 'owner' ? 'owner' : 'purchased', licence?.expiresAt ?? null));
  });

  router.get('/api/files/:id/pages', async (req, res) => {
    const { file } = await readableFile(req);
    res.json((await repo.playerPages(file)).map(toFilePage));
  });

  router.get('/api/dashboard/stats', async (req, res) => {
    const { userId } = requireIdentity(req);
    const [owner, fileCount, recent, sums] = await Promise.all([
      ctx.data.owners.ensure(userId),
      repo.countByOwner(userId),
      repo.listByOwner(userId, 5),
      repo.monthlySums(userId, startOfMonth()),
    ]);
    const body: DashboardStats = {
      user: { membershipTier: owner.membershipTier, points: owner.points },
      fileCount,
      fileLimit: fileLimitFor(owner.membershipTier),
      monthlyEarnings: sums.earned,
      monthlySpent: sums.spent,
      recentFiles: recent.map(toFileSummary),
    };
    res.json(body);
  });

  return router;
}
