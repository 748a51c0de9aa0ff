import type { MigrateAccountRequest, MigrateAccountResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/migrate-account: old external login → local password, with the migration bonus. */
export async function migrateAccount(body: MigrateAccountRequest): Promise<MigrateAccountResponse> {
  const res = await apiRequest('POST', '/api/auth/migrate-account', body);
  return (await res.json()) as MigrateAccountResponse;
}
