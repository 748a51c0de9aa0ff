// The running takeovers (GET /api/screens/takeovers): fleet control lists and ends them; the Screens page and fleet
// health name the message a screen shows under one. Kept here as both read it.
import type { Takeover } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

export const takeoversKey = ['/api/screens/takeovers'] as const;
export const takeoversQuery = queryOptions<Takeover[]>({ queryKey: takeoversKey, refetchInterval: 15_000 });
