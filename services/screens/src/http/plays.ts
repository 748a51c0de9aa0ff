// Proof of play: the member's report (JSON or CSV), the refused records, and the plays of the files they sold.
import { PlayProofQuery, PlayReportQuery, RefusedPlaysQuery, SoldPlaysQuery } from '@pagecast/contracts';
import { parseWith, requireActor } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { ownerPlayProof, proofFileName, soldPlayProof } from '../use-cases/play-proof';
import { playReport, playReportCsv } from '../use-cases/play-report';
import { refusedPlays } from '../use-cases/refused-plays';
import { soldPlays } from '../use-cases/sold-plays';
import { noStore } from './no-store';

export function playsRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/api/screens/plays', async (req, res) => {
    const me = requireActor(req, 'plays.read');
    const query = parseWith(PlayReportQuery, req.query);
    const report = await playReport(ctx, me.workspaceId, query);
    noStore(res);
    if (query.format === 'csv') {
      res
        .type('text/csv; charset=utf-8')
        .set('Content-Disposition', `attachment; filename="plays-${query.from}-${query.to}.csv"`)
        .send(playReportCsv(report));
    } else res.json(report);
  });
  // signed proof of play: one file's proof over whole UTC days, as a download checked offline by pagecast-verify
  const proofRoute = (path: string, action: 'plays.read' | 'sales.read', proofOf: typeof ownerPlayProof) =>
    router.get(path, async (req, res) => {
      const me = requireActor(req, action);
      const query = parseWith(PlayProofQuery, req.query);
      const proof = await proofOf(ctx, me.workspaceId, query);
      noStore(res)
        .set('Content-Disposition', `attachment; filename="${proofFileName(query)}"`)
        .json(proof);
    });
  proofRoute('/api/screens/plays/proof', 'plays.read', ownerPlayProof);
  proofRoute('/api/screens/plays/sold/proof', 'sales.read', soldPlayProof);
  router.get('/api/screens/plays/refused', async (req, res) => {
    const me = requireActor(req, 'plays.read');
    noStore(res).json(await refusedPlays(ctx, me.workspaceId, parseWith(RefusedPlaysQuery, req.query)));
  });
  router.get('/api/screens/plays/sold', async (req, res) => {
    const me = requireActor(req, 'sales.read');
    noStore(res).json(await soldPlays(ctx, me.workspaceId, parseWith(SoldPlaysQuery, req.query)));
  });
  return router;
}
