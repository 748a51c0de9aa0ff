// Real stand-ins for the services around the gateway: an account with a JWKS and a refresh endpoint, and echo
// services that report what reached them (headers, body size and hash), all plain HTTP servers on port 0. What a
// stand-in answers for a route goes through the contracts' schema of that route (contract.ts); the echoes are probes.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { subjects } from '@pagecast/contracts';
import { testEnv } from '@pagecast/service-kit/testing';
import express from 'express';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { type GatewayConfig, loadGatewayConfig } from '../src/config';
import { createGateway, type Gateway } from '../src/server';
import { sendAnswer } from './contract';

export interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  sha256: string;
}

export async function listen(app: express.Express): Promise<{ server: Server; url: string; port: number }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, port };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Reads the body as a stream (as a service would) and answers what it saw. */
function echo(name: string, seen: Seen[]): express.RequestHandler {
  return (req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    req.on('end', () => {
      const entry = {
        method: req.method,
        url: req.originalUrl,
        headers: req.headers,
        bytes,
        sha256: hash.digest('hex'),
      };
      seen.push(entry);
      res.json({ service: name, ...entry });
    });
  };
}

export async function startEchoService(name: string) {
  const seen: Seen[] = [];
  const app = express();
  app.get('/openapi.json', (_req, res) => {
    res.json({ openapi: '3.1.0', info: { title: name, version: 'test' }, paths: {} });
  });
  app.use(echo(name, seen));
  const { server, url } = await listen(app);
  return { url, seen, close: () => closeServer(server) };
}

export async function createKeys() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const sign = (claims: { sub: string; sid: string; iat?: number; exp?: number }) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setSubject(claims.sub)
      .setIssuedAt(claims.iat ?? now)
      .setExpirationTime(claims.exp ?? now + 900)
      .sign(privateKey);
  };
  return { jwk, sign };
}

export type Keys = Awaited<ReturnType<typeof createKeys>>;

/** Account stand-in: JWKS, the internal refresh call (answers for sessions in `liveSessions`), echo for the rest. */
export async function startFakeAccount(keys: Keys) {
  const seen: Seen[] = [];
  const refreshCalls: { headers: Record<string, string | string[] | undefined>; body: unknown }[] = [];
  const liveSessions = new Map<string, string>(); // sid → userId
  const app = express();
  app.get('/.well-known/jwks.json', (_req, res) => {
    res.json({ keys: [keys.jwk] });
  });
  app.post('/internal/sessions/refresh', express.json(), async (req, res) => {
    refreshCalls.push({ headers: req.headers, body: req.body });
    const sid = (req.body as { sid?: string }).sid ?? '';
    const userId = liveSessions.get(sid);
    if (!userId) {
      sendAnswer(res, 'account.sessionRefresh', 401, { code: 'UNAUTHORIZED', message: 'Unauthorized' });
      return;
    }
    // SessionRefreshResponse of the contracts: the new token and the session's end (epoch seconds).
    const token = await keys.sign({ sub: userId, sid });
    sendAnswer(res, 'account.sessionRefresh', 200, { token, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  });
  app.get('/openapi.json', (_req, res) => {
    res.json({ openapi: '3.1.0', info: { title: 'account', version: 'test' }, paths: {} });
  });
  app.get('/api/logout', (req, res) => {
    // Like account: clear the cookie and go home. Recorded for the test.
    seen.push({ method: req.method, url: req.originalUrl, headers: req.headers, bytes: 0, sha256: '' });
    sendAnswer(res, 'logout', 302, null, { location: '/' });
  });
  app.use(echo('account', seen));
  const { server, url } = await listen(app);
  return { url, seen, refreshCalls, liveSessions, close: () => closeServer(server) };
}

export function makeStaticTree() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-static-'));
  const big = `console.log(${JSON.stringify('pagecast '.repeat(400))});\n`;
  const write = (rel: string, content: string) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  write(
    'shell/dist/index.html',
    '<!doctype html><html><head><title>t</title></head><body><div id="root"></div>shell-index</body></html>',
  );
  // the shell build's prerendered visitor pages (shell/src/prerender): here /login in Japanese and English only
  for (const language of ['ja', 'en']) {
    write(
      `shell/dist/prerendered/${language}/login.html`,
      `<!doctype html><html lang="${language}"><head><title>t</title></head><body><div id="root" data-prerendered="${language}">prerendered-${language}-login</div></body></html>`,
    );
    // and a signage page's loading frame
    write(
      `shell/dist/prerendered/${language}/signage.html`,
      `<!doctype html><html lang="${language}"><head><title>t</title></head><body><div id="root">signage-frame-${language}</div></body></html>`,
    );
  }
  write('shell/dist/main.3f9a1c2e.js', big);
  // the build's list of its catalogue chunks (packages/federation: catalogueListPlugin)
  write(
    'shell/dist/catalogues.json',
    JSON.stringify({ en: ['catalogue-en.0a1b2c3d4e.js'], fr: ['catalogue-fr.5f6a7b8c9d.js'] }),
  );
  // the build's brotli copy, marked so a test can tell it from compression at request time
  const prebuilt = `${big}// prebuilt\n`;
  const writeBrotli = (rel: string) =>
    fs.writeFileSync(path.join(root, `${rel}.br`), zlib.brotliCompressSync(Buffer.from(prebuilt)));
  writeBrotli('shell/dist/main.3f9a1c2e.js');
  write('shell/dist/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('mf-files/dist/mf-manifest.json', JSON.stringify({ id: 'mf_files', name: 'mf_files' }));
  write('mf-files/dist/remoteEntry.js', big);
  write('mf-files/dist/mf-manifest.lean.json', JSON.stringify({ id: 'mf_files', name: 'mf_files' }));
  write('mf-files/dist/remoteEntry.lean.js', big);
  write('mf-files/dist/static/js/412.a1b2c3d4.js', big);
  writeBrotli('mf-files/dist/remoteEntry.js');
  write('mf-marketplace/dist/mf-manifest.json', JSON.stringify({ id: 'mf_marketplace' }));
  // mf-player is deliberately not built.
  return {
    root,
    staticDir: path.join(root, 'shell', 'dist'),
    big,
    prebuilt,
    cleanup: () => fs.rmSync(root, { recursive: true }),
  };
}

export function gatewayConfig(env: Record<string, string>): GatewayConfig {
  return loadGatewayConfig({
    ...process.env,
    ...testEnv(),
    LOG_LEVEL: 'silent',
    PORT: '0',
    INTERNAL_PORT: '0',
    // no edge cache of videos unless a test asks for one in a folder of its own (video.test.ts)
    VIDEO_CACHE_BYTES: '0',
    ...env,
  });
}

export async function startGateway(
  env: Record<string, string>,
): Promise<{ gateway: Gateway; url: string; internalUrl: string }> {
  const gateway = createGateway(gatewayConfig(env));
  const { url, internalUrl } = await gateway.start(0);
  return { gateway, url, internalUrl };
}

/** Publishes a revocation exactly as account's outbox does (envelope, message id). */
export async function publishRevocation(sessionId: string, userId: string) {
  const nc = await connect({ servers: testEnv().NATS_URL });
  try {
    const js = jetstream(nc);
    const id = randomUUID();
    const now = new Date().toISOString();
    const envelope = {
      id,
      type: subjects.sessionRevoked,
      occurredAt: now,
      data: { sessionId, userId, revokedAt: now },
    };
    await js.publish(subjects.sessionRevoked, JSON.stringify(envelope), { msgID: id });
  } finally {
    await nc.close();
  }
}

export const cookieHeader = (token: string) => `pc_session=${token}`;

/** A member signed in with `keys`: their ids and the session cookie a browser sends. */
export async function signedMember(keys: Keys) {
  const userId = `u-${randomUUID()}`;
  const sessionId = `s-${randomUUID()}`;
  return { userId, sessionId, cookie: cookieHeader(await keys.sign({ sub: userId, sid: sessionId })) };
}

/** Screens' device-token keys: the public JWK its JWKS serves, and a signer of device tokens as screens signs them. */
export async function createDeviceKeys() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const signDevice = (d: { deviceId: string; screenId: string; ownerId: string }) =>
    new SignJWT({ scr: d.screenId, own: d.ownerId, typ: 'device' })
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setSubject(d.deviceId)
      .setIssuedAt()
      .setExpirationTime('1y')
      .sign(privateKey);
  return { jwk, signDevice };
}

/** Screens stand-in with only its device-token keys (JWKS) and a signer of device tokens. */
export async function startDeviceKeys() {
  const { jwk, signDevice } = await createDeviceKeys();
  const app = express();
  app.get('/.well-known/jwks.json', (_req, res) => void res.json({ keys: [jwk] }));
  const { server, url } = await listen(app);
  return { url, signDevice, close: () => closeServer(server) };
}

/** A request and its answer, the body read whole as bytes. */
export function requestBytes(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject)
      .end();
  });
}

/** A player that leaves after the first bytes of its answer (the request destroyed): resolves once it has left. */
export function leaveAfterFirstBytes(url: string, headers: Record<string, string> = {}) {
  return new Promise<void>((resolve, reject) => {
    const req = http.request(url, { headers }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (err) => (err.message.includes('socket hang up') ? resolve() : reject(err)));
    req.end();
  });
}

export async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
