import type { BillingConfig } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/billing/config: whether card payments are configured, the publishable key, where Stripe.js lives. */
export const billingConfigQuery = queryOptions<BillingConfig>({ queryKey: ['/api/billing/config'] });
