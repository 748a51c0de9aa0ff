// What a live stream watches (events.ts): the index keys, and the query (`playlist=<id>`, `file=<id>`, `since`) that
// names them.
import type express from 'express';

/** Index keys: what a stream watches, and what an event concerns. */
export const watchKey = {
  playlist: (id: string) => `playlist:${id}`,
  file: (id: string) => `file:${id}`,
  /** a paired display watches its own screen (screens.screen.changed.v1) */
  screen: (id: string) => `screen:${id}`,
  /** a member's Screens page (`?screens=mine`) hears the status reports of all their screens (live.ts) */
  owner: (userId: string) => `owner:${userId}`,
};

const WATCH_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

function queryList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The watch keys (and `since`, ms since 1970) of a request, or the issues that make it a 400. */
export function parseWatches(
  query: express.Request['query'],
  max: number,
): { keys: string[]; since: number | undefined } | { issues: { path: string; message: string }[] } {
  const keys = new Set<string>();
  const issues: { path: string; message: string }[] = [];
  let since: number | undefined;
  if (query.since !== undefined) {
    since = typeof query.since === 'string' && /^\d{1,15}$/.test(query.since) ? Number(query.since) : undefined;
    if (since === undefined) issues.push({ path: 'since', message: 'validation.sinceInvalid' });
  }
  for (const kind of ['playlist', 'file'] as const) {
    for (const id of queryList(query[kind])) {
      if (typeof id === 'string' && WATCH_ID.test(id)) keys.add(watchKey[kind](id));
      else issues.push({ path: kind, message: 'validation.idInvalid' });
    }
  }
  // Codes, worded by the reader's catalogue; the limit is LiveLimits.maxWatches.
  if (keys.size > max) issues.push({ path: 'playlist', message: 'validation.tooManyWatches' });
  return issues.length ? { issues } : { keys: [...keys], since };
}
