// Operator command: gives every member who has none their workspace and owner row (account's start does the same).
//   npm -w services/account run migrate-workspaces
// Idempotent: a second run inserts nothing. Writes only `workspaces` and `workspace_members` (no user, session or
// event). Uses the service's environment (MONGO_URL, MONGO_DB).
import { connectMongo, createLogger, databaseNameOf } from '@pagecast/service-kit';
import { loadServiceConfig } from '../config';
import { createRepositories } from '../data';
import { DATABASE_NAME } from '../server';
import { ensureWorkspaces } from '../use-cases/own-workspace';

export async function migrateWorkspaces(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const config = loadServiceConfig(env);
  const logger = createLogger('account-cli', env.LOG_LEVEL ?? 'warn');
  const conn = await connectMongo(config.MONGO_URL, databaseNameOf(config, DATABASE_NAME), logger);
  try {
    const data = createRepositories(conn);
    await data.init();
    const run = await ensureWorkspaces(data);
    const counts = await data.workspaces.counts();
    return [
      `members read: ${run.scanned}`,
      `workspaces created: ${run.workspacesCreated}, owner rows created: ${run.ownersCreated}`,
      `now: ${counts.workspaces} workspaces, ${counts.owners} owners, ${counts.members} memberships`,
    ].join('\n');
  } finally {
    await conn.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  migrateWorkspaces().then(
    (out) => {
      process.stdout.write(`${out}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
