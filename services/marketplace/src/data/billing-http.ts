import {
  INTERNAL_TRANSFERS_PATH,
  internalTransferPath,
  serviceIdentity,
  TransferOutcome,
  TransferRequest,
} from '@pagecast/contracts';
import { signIdentityHeader } from '@pagecast/service-kit';
import type { Config } from '../config';
import type { BillingClient } from './billing';

/** Well below the sweeper's age for pending purchases, so a sweep never overlaps a call still on its way. */
const CALL_TIMEOUT_MS = 10_000;

/** Billing's internal transfer call over HTTP, signed with the marketplace's service identity. */
export function createBillingClient(config: Pick<Config, 'BILLING_URL' | 'INTERNAL_SECRET'>): BillingClient {
  const call = async (method: 'GET' | 'POST', path: string, body?: TransferRequest) => {
    const res = await fetch(new URL(path, config.BILLING_URL), {
      method,
      headers: {
        'x-pagecast-identity': signIdentityHeader(serviceIdentity('marketplace'), config.INTERNAL_SECRET),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`billing ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return TransferOutcome.parse(JSON.parse(text));
  };
  return {
    // the request is checked against the contract before it leaves, the answer when it comes back
    transfer: (req) => call('POST', INTERNAL_TRANSFERS_PATH, TransferRequest.parse(req)),
    lookup: (transferId) => call('GET', internalTransferPath(transferId)),
  };
}
