// The fleet's screens as fleet control, its names and the proposals read them (the Screens page reads the same key).
import type { ScreenList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/screens: the workspace's screens. */
export const fleetScreensQuery = queryOptions<ScreenList>({ queryKey: ['/api/screens'], refetchInterval: 30_000 });
