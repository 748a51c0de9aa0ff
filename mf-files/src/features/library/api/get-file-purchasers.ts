import type { PurchasersResponse } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/files/:id/purchasers: asked each time the delete confirmation opens. */
export const filePurchasersQuery = (id: string) =>
  queryOptions<PurchasersResponse>({ queryKey: ['/api/files', id, 'purchasers'], staleTime: 0, gcTime: 0 });
