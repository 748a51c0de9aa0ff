// A display's content reads after a playlist edit, as mf-player's display page makes them: its playlist, then the
// pages of each file it plays, each with the ETag it holds (If-None-Match; unchanged files answer 304). Before, the
// page's slides and its offline keeper each made every read at the same moment (two of each); now they share the
// reads of a change (model/content-reads.ts), one of each. The gateway's CPU per display and the reads that reached
// file-conversion, both ways. The gateway runs in its own process (bench/live-child.ts); file-conversion is a
// stand-in (an HTTP server answering the same bytes and ETags: 200 with the body, 304 to the ETag held), so its own
// cost per read is not measured here. Each pass: N displays, each "edits" once (a new playlist ETag), 50 displays
// at a time; the two ways alternate, pass after pass. Figures only: it fails only when it cannot measure.
import { createHash, randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testEnv } from '@pagecast/service-kit/testing';
import { ownNodeArgs } from '../../scripts/lib/node-args.mjs';
import { startGatewayChild } from './gateway-child.mjs';
import { jwksStandIn } from './jwks-stand-in.mjs';

const _here = dirname(fileURLToPath(import.meta.url));
const PLAYLIST = randomUUID().replaceAll('-', '').slice(0, 24);
const FILES = [0, 1].map(() => randomUUID().replaceAll('-', '').slice(0, 24));
const etagOf = (text) => `W/"${text.length.toString(16)}-${createHash('sha1').update(text).digest('base64url')}"`;

/** The answers file-conversion gives a display: the playlist's items (one file added by the edit), each file's pages. */
function contentOf(edit) {
  const items = FILES.map((fileId, position) => ({
    id: `${PLAYLIST}-${fileId}-${edit}`,
    playlistId: PLAYLIST,
    fileId,
    position,
    createdAt: '2026-12-07T00:00:00.000Z',
    file: { id: fileId, title: `Document ${position}`, kind: 'pdf', pageCount: 8 },
  }));
  const bodies = new Map([[`/api/playlists/${PLAYLIST}/items`, JSON.stringify(items)]]);
  for (const fileId of FILES) {
    const pages = Array.from({ length: 8 }, (_, n) => ({
      id: `${fileId}-${n}`,
      fileId,
      pageNumber: n + 1,
      imagePath: `/media/pages/${fileId}/${n}-0123456789abcdef.webp`,
      thumbPath: `/media/pages/${fileId}/${n}-0123456789abcdef-t.webp`,
      displayDuration: 5,
    }));
    bodies.set(`/api/files/${fileId}/pages?signage_mode=true`, JSON.stringify(pages));
  }
  return new Map([...bodies].map(([path, json]) => [path, { json, etag: etagOf(json) }]));
}

const startGateway = (env) => startGatewayChild(env, ['--import', 'tsx', ...ownNodeArgs.gateway]);

export async function benchEditReads({
  log = console.log,
  displays = Number(process.env.BENCH_EDIT_DISPLAYS ?? 1000),
  passes = Number(process.env.BENCH_EDIT_PASSES ?? 3),
} = {}) {
  let content = contentOf(0);
  let upstream = 0;
  // file-conversion's device reads as it answers them: the body with its ETag, or 304 to the ETag held
  const jwks = await jwksStandIn((req, res) => {
    const found = content.get(req.url ?? '');
    if (!found) {
      res.statusCode = 404;
      return res.end();
    }
    upstream++;
    if (req.headers['if-none-match'] === found.etag) {
      res.writeHead(304, { etag: found.etag });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', etag: found.etag });
    res.end(found.json);
  });
  const sign = jwks.signDevice;
  const env = testEnv();
  const gateway = await startGateway({
    NATS_URL: env.NATS_URL,
    INTERNAL_SECRET: env.INTERNAL_SECRET,
    ACCOUNT_URL: jwks.url,
    SCREENS_URL: jwks.url,
    FILES_URL: jwks.url,
    PORT: '0',
    INTERNAL_PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_API_MAX: String(displays * 100),
  });
  const rows = [];
  let edit = 0;
  try {
    const devices = [];
    for (let i = 0; i < displays; i++) {
      const device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: 'owner-1' };
      devices.push({ cookie: `pc_device=${await sign(device)}`, held: new Map() });
    }
    /** One read as fetchJsonWithEtag makes it: with the ETag held; a 200 replaces it. */
    const readHeld = async (d, path) => {
      const etag = d.held.get(path);
      const res = await fetch(`http://127.0.0.1:${gateway.port}${path}`, {
        headers: { cookie: d.cookie, ...(etag ? { 'if-none-match': etag, 'cache-control': 'max-age=0' } : {}) },
      });
      const body = await res.text();
      const want = content.get(path);
      if (res.status === 200 && res.headers.get('etag') === want.etag && body === want.json) {
        d.held.set(path, want.etag);
        return JSON.parse(body);
      }
      if (res.status === 304 && etag === want.etag) return null;
      throw new Error(`${path} answered ${res.status} ${res.headers.get('etag')}, expected ${want.etag}`);
    };
    /** The display page's reads after a change: the playlist, then each file's pages in order. */
    const afterChange = async (d) => {
      const items = await readHeld(d, `/api/playlists/${PLAYLIST}/items`);
      for (const i of items ?? []) await readHeld(d, `/api/files/${i.fileId}/pages?signage_mode=true`);
    };
    const pass = async (copies, measured) => {
      // the edit: the playlist's bytes change, the files' pages do not
      content = contentOf(++edit);
      for (const [path, v] of contentOf(0)) if (path.includes('/pages')) content.set(path, v);
      const reads0 = upstream;
      const cpu0 = await gateway.cpu();
      const t0 = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < devices.length) {
          const d = devices[next++];
          await Promise.all(Array.from({ length: copies }, () => afterChange(d)));
        }
      };
      await Promise.all(Array.from({ length: 50 }, worker));
      const ms = performance.now() - t0;
      const cpu1 = await gateway.cpu();
      if (!measured) return;
      const reads = upstream - reads0;
      const row = {
        way: copies === 2 ? 'slides and keeper each read (before)' : 'reads of a change shared (now)',
        displays: devices.length,
        readsPerDisplay: reads / devices.length,
        gatewayMicrosPerDisplay: Math.round((cpu1.micros - cpu0.micros) / devices.length),
        gatewayMicrosPerRead: Math.round((cpu1.micros - cpu0.micros) / reads),
        displaysPerSecond: Math.round(devices.length / (ms / 1000)),
      };
      rows.push(row);
      log(
        `edit reads: ${row.way}: ${row.readsPerDisplay} reads per display, ${row.gatewayMicrosPerDisplay} µs of the gateway's CPU per display (${row.gatewayMicrosPerRead} per read), ${row.displaysPerSecond} displays/s`,
      );
    };
    // boot (every path read once, its ETag held), a warm-up of each way; then alternated
    await Promise.all(devices.map((d) => afterChange(d)));
    await pass(2, false);
    await pass(1, false);
    for (let i = 0; i < passes; i++) {
      await pass(2, true);
      await pass(1, true);
    }
    return rows;
  } finally {
    await gateway.stop();
    await jwks.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchEditReads();
  console.table(rows);
  process.exit(0);
}
