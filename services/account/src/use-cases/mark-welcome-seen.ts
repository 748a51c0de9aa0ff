import { AppError } from '@pagecast/service-kit';
import type { AccountDeps } from './deps';

export async function markWelcomeSeen(deps: AccountDeps, userId: string) {
  if (!(await deps.data.users.markWelcomeSeen(userId))) throw new AppError('UNAUTHORIZED');
  return { ok: true as const };
}
