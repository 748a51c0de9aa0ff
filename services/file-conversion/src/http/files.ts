import {
  FileIdParams,
  PublishSettingsRequest,
  SignageQuery,
  UpdateDisplayModeRequest,
  UpdateDurationRequest,
  UpdateFileRequest,
} from '@pagecast/contracts';
import { auditActor, parseWith, requireActor } from '@pagecast/service-kit';
import { type Request, Router } from 'express';
import type { ServiceContext } from '../context';
import { dashboardStats } from '../use-cases/dashboard-stats';
import { deleteFile } from '../use-cases/delete-file';
import { deviceFilePages } from '../use-cases/device-reads';
import { fileCopyright } from '../use-cases/file-copyright';
import { filePages } from '../use-cases/file-pages';
import { filePurchasers } from '../use-cases/file-purchasers';
import { getFile } from '../use-cases/get-file';
import { listAccessibleFiles } from '../use-cases/list-accessible-files';
import { listFiles } from '../use-cases/list-files';
import { publishFile } from '../use-cases/publish-file';
import { updateFile } from '../use-cases/update-file';
import { callerOf } from './caller';
import { handleUpload } from './upload';

/** The workspace (its owner's id) and the file id of a call about one of the workspace's files. */
const own = (req: Request, action: 'files.read' | 'files.write' | 'marketplace.sell' | 'sales.read') => ({
  userId: requireActor(req, action).workspaceId,
  id: parseWith(FileIdParams, req.params).id,
});

/** A file read for the player (signage_mode=true also lets a licence holder in) or for its own page. */
const read = (req: Request) => {
  const caller = callerOf(req, 'files.read');
  const { id } = parseWith(FileIdParams, req.params);
  const { signage_mode } = parseWith(SignageQuery, req.query);
  return { caller, id, use: signage_mode === 'true' ? ('play' as const) : ('library' as const) };
};

export function filesRouter(ctx: ServiceContext): Router {
  const router = Router();

  router.get('/api/files', async (req, res) => {
    res.json(await listFiles(ctx, requireActor(req, 'files.read').workspaceId));
  });

  router.get('/api/files/accessible', async (req, res) => {
    res.json(await listAccessibleFiles(ctx, requireActor(req, 'files.read').workspaceId));
  });

  router.post('/api/files/upload', (req, res) => handleUpload(ctx, req, res));

  router.get('/api/files/:id/copyright', async (req, res) => {
    const { userId, id } = own(req, 'files.read');
    res.json(await fileCopyright(ctx, userId, id));
  });

  router.put('/api/files/:id/publish', async (req, res) => {
    const { userId, id } = own(req, 'marketplace.sell');
    res.json(await publishFile(ctx, userId, id, parseWith(PublishSettingsRequest, req.body), auditActor(req)));
  });

  router.get('/api/files/:id/purchasers', async (req, res) => {
    const { userId, id } = own(req, 'sales.read');
    res.json(await filePurchasers(ctx, userId, id));
  });

  router.delete('/api/files/:id', async (req, res) => {
    const { userId, id } = own(req, 'files.write');
    await deleteFile(ctx, userId, id, auditActor(req));
    res.json({ ok: true });
  });

  router.put('/api/files/:id/duration', async (req, res) => {
    const { userId, id } = own(req, 'files.write');
    res.json(await updateFile(ctx, userId, id, parseWith(UpdateDurationRequest, req.body), auditActor(req)));
  });

  router.put('/api/files/:id/display-mode', async (req, res) => {
    const { userId, id } = own(req, 'files.write');
    res.json(await updateFile(ctx, userId, id, parseWith(UpdateDisplayModeRequest, req.body), auditActor(req)));
  });

  router.put('/api/files/:id', async (req, res) => {
    const { userId, id } = own(req, 'files.write');
    res.json(await updateFile(ctx, userId, id, parseWith(UpdateFileRequest, req.body ?? {}), auditActor(req)));
  });

  router.get('/api/files/:id', async (req, res) => {
    const { caller, id, use } = read(req);
    res.json(await getFile(ctx, caller, id, use));
  });

  router.get('/api/files/:id/pages', async (req, res) => {
    const { caller, id, use } = read(req);
    // a display's read comes from memory (use-cases/device-reads.ts): the same answer, without the database
    res.json(
      caller.kind === 'device' ? await deviceFilePages(ctx, caller, id, use) : await filePages(ctx, caller, id, use),
    );
  });

  router.get('/api/dashboard/stats', async (req, res) => {
    res.json(await dashboardStats(ctx, requireActor(req, 'files.read').workspaceId));
  });

  return router;
}
