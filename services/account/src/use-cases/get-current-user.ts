import type { CurrentUser } from '@pagecast/contracts';
import { toCurrentUser } from '../domain';
import type { AccountDeps } from './deps';
import { mustFindUser } from './shared';

export async function getCurrentUser(deps: AccountDeps, userId: string): Promise<CurrentUser> {
  return toCurrentUser(await mustFindUser(deps, userId));
}
