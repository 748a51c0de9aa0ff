import { AppError } from '@pagecast/service-kit';
import { Router } from 'express';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { runJobsOnce } from '../use-cases/run-jobs';

const Advance = z.object({
  ms: z
    .number()
    .int()
    .min(0)
    .max(400 * 24 * 3600 * 1000),
});

/**
 * Test only (mounted when config.TEST_CLOCK, which production refuses): moves the service's clock forward and
 * runs the licence jobs at once, so a test sees a 30-day licence end.
 */
export function testClockRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.post('/internal/test/clock', async (req, res) => {
    const parsed = Advance.safeParse(req.body);
    if (!parsed.success) throw new AppError('VALIDATION');
    ctx.clock.advance(parsed.data.ms);
    const ran = await runJobsOnce(ctx);
    res.json({ now: ctx.clock.now().toISOString(), ...ran });
  });
  return router;
}
