import { AuditParams, AuditQuery } from '@pagecast/contracts';
import { AppError, parseWith, requireActor } from '@pagecast/service-kit';
import { type Request, Router } from 'express';
import type { AccountDeps } from '../use-cases/deps';
import { isSessionAlive } from '../use-cases/is-session-alive';
import { exportAuditCsv, readAudit } from '../use-cases/read-audit';

const CsvQuery = AuditQuery.omit({ cursor: true, limit: true });

/** The audit log's read routes (GET only: the log has no route that changes it). */
export function createAuditRoutes(deps: AccountDeps): Router {
  const router = Router();
  /**
   * The caller, allowed 'audit.read' in the workspace the call acts in, its session alive. The workspace the path
   * names is then checked against the caller's stored membership (use-cases/read-audit.ts).
   */
  const session = async (req: Request) => {
    const actor = requireActor(req, 'audit.read');
    if (!(await isSessionAlive(deps, actor.userId, actor.sessionId))) throw new AppError('UNAUTHORIZED');
    return actor;
  };

  router.get('/api/workspaces/:id/audit', async (req, res) => {
    const identity = await session(req);
    const { id } = parseWith(AuditParams, req.params);
    const query = parseWith(AuditQuery, req.query);
    res.set('Cache-Control', 'no-store').json(await readAudit(deps.data, identity, id, query));
  });

  router.get('/api/workspaces/:id/audit.csv', async (req, res) => {
    const identity = await session(req);
    const { id } = parseWith(AuditParams, req.params);
    const query = parseWith(CsvQuery, req.query);
    const lines = await exportAuditCsv(deps.data, identity, id, query);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .set('Cache-Control', 'no-store')
      .set('Content-Disposition', `attachment; filename="audit-${id}.csv"`);
    for await (const line of lines) {
      if (!res.write(line)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  });

  return router;
}
