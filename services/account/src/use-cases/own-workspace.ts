import type { Repositories } from '../data';
import { chooseLocale, defaultWorkspaceName, type UserRecord } from '../domain';

type Owner = Pick<UserRecord, '_id' | 'email' | 'firstName' | 'lastName' | 'locale'>;

/** The workspace of a person's own account and their owner row (idempotent: each is an insert-once). */
export async function createOwnWorkspace(data: Pick<Repositories, 'workspaces'>, user: Owner, at = new Date()) {
  return data.workspaces.ensureOwn({
    userId: user._id,
    name: defaultWorkspaceName({ ...user, locale: chooseLocale({ account: user.locale }) }),
    at,
  });
}

export interface WorkspaceMigration {
  /** members read */
  scanned: number;
  /** workspaces and owner rows this run inserted */
  workspacesCreated: number;
  ownersCreated: number;
}

/**
 * Gives every member who has none their workspace and owner row: run at account's start and by the operator command
 * (`npm -w services/account run migrate-workspaces`). Idempotent: a second run inserts nothing, and nothing but these
 * two collections is written (no user, session or event).
 */
export async function ensureWorkspaces(data: Pick<Repositories, 'users' | 'workspaces'>): Promise<WorkspaceMigration> {
  const out: WorkspaceMigration = { scanned: 0, workspacesCreated: 0, ownersCreated: 0 };
  for await (const page of data.users.pages()) {
    out.scanned += page.length;
    const done = await data.workspaces.withOwnWorkspace(page.map((u) => u._id));
    for (const user of page) {
      if (done.has(user._id)) continue;
      // dated as the account: the member has owned it since then
      const made = await createOwnWorkspace(data, user, user.createdAt ?? new Date());
      if (made.workspace) out.workspacesCreated++;
      if (made.owner) out.ownersCreated++;
    }
  }
  return out;
}
