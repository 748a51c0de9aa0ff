// Operator command: walks every workspace's audit chain (or one) and says, per workspace, its length and OK with its
// head hash, or the first broken link. Exit 1 when any chain is broken.
//   npm run audit:verify [-- --workspace <id>]      (MONGO_URL, MONGO_DB or MONGO_DB_PREFIX as for the service)
// Noting the head hashes it prints, and comparing them later, also shows when the newest entries were removed.
import { parseArgs } from 'node:util';
import { baseConfigSchema, chainVerifier, connectMongo, createLogger, databaseNameOf } from '@pagecast/service-kit';
import { z } from 'zod';
import { chainedRow, createAuditLogRepository } from '../data/audit-log';
import { DATABASE_NAME } from '../server';

const Env = z.object({
  MONGO_URL: baseConfigSchema.MONGO_URL,
  MONGO_DB: baseConfigSchema.MONGO_DB,
  MONGO_DB_PREFIX: baseConfigSchema.MONGO_DB_PREFIX,
});

/** Runs the check; lines go to `print`; answers the exit code (0: every chain holds, 1: a break). */
export async function auditVerify(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { workspace: { type: 'string' } } });
  const config = Env.parse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')));
  const logger = createLogger('account-audit-verify', 'warn');
  const conn = await connectMongo(config.MONGO_URL, databaseNameOf(config, DATABASE_NAME), logger);
  try {
    const log = createAuditLogRepository(conn);
    const workspaces = values.workspace ? [values.workspace] : await log.workspaces();
    let broken = 0;
    for (const workspaceId of workspaces) {
      // row by row: a workspace's log of 400 days is never held whole
      const verifier = chainVerifier();
      for await (const row of log.chain(workspaceId)) verifier.push(chainedRow(row));
      const verdict = verifier.verdict();
      if (verdict.ok) {
        print(`${workspaceId}\t${verdict.length} entries\tOK\thead ${verdict.head}`);
      } else {
        broken++;
        const b = verdict.broken;
        print(
          `${workspaceId}\t${verdict.length} entries\tBROKEN at seq ${b.seq ?? '?'} (position ${b.position}, entry ${b.id ?? '?'}): ${b.reason}`,
        );
      }
    }
    print(`${workspaces.length} workspace(s), ${broken} broken`);
    return broken > 0 ? 1 : 0;
  } finally {
    await conn.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  auditVerify(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
