import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type mongoose from 'mongoose';

/**
 * A load run's diagnostic (PAGECAST_DB_COMMAND_STATS=<dir>): counts this connection's database commands by command,
 * collection and the filter's fields, with the documents they returned, and writes them to <dir>/<db>-<pid>.json
 * every 5 s. FerretDB's own profile says how much it decodes, not for whom; this says which query asks it to.
 * Never set in production (the driver's command events cost CPU on every operation).
 */
export function countDbCommands(conn: mongoose.Connection, dbName: string, dir: string): void {
  const client = conn.getClient();
  const counts = new Map<string, { commands: number; docs: number; ms: number }>();
  const started = new Map<number, { key: string; at: number }>();
  const shape = (filter: unknown): string =>
    filter && typeof filter === 'object'
      ? Object.entries(filter as Record<string, unknown>)
          .map(([k, v]) =>
            v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
              ? `${k}:{${Object.keys(v as object).join(',')}}`
              : k,
          )
          .join(',')
      : '';
  client.on('commandStarted', (e) => {
    const cmd = e.command as Record<string, unknown>;
    const coll = String(cmd[e.commandName] ?? '');
    const filter =
      cmd.filter ??
      (Array.isArray(cmd.updates) ? (cmd.updates[0] as { q?: unknown })?.q : undefined) ??
      (Array.isArray(cmd.deletes) ? (cmd.deletes[0] as { q?: unknown })?.q : undefined) ??
      cmd.query;
    const n = Array.isArray(cmd.documents) ? ` x${cmd.documents.length > 1 ? 'n' : '1'}` : '';
    started.set(e.requestId, { key: `${e.commandName} ${coll} {${shape(filter)}}${n}`, at: performance.now() });
  });
  const done = (e: { requestId: number; reply?: unknown }) => {
    const s = started.get(e.requestId);
    if (!s) return;
    started.delete(e.requestId);
    const reply = e.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] } } | undefined;
    const docs = (reply?.cursor?.firstBatch ?? reply?.cursor?.nextBatch ?? []).length;
    const c = counts.get(s.key) ?? { commands: 0, docs: 0, ms: 0 };
    c.commands++;
    c.docs += docs;
    c.ms += performance.now() - s.at;
    counts.set(s.key, c);
  };
  client.on('commandSucceeded', done);
  client.on('commandFailed', done);
  const file = join(dir, `${dbName}-${process.pid}.json`);
  setInterval(() => {
    const rows = [...counts].sort((a, b) => b[1].commands - a[1].commands);
    writeFileSync(file, JSON.stringify(Object.fromEntries(rows), null, 1));
  }, 5000).unref();
}
