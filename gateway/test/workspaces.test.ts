// The workspace a call acts in, against the real NATS: memberships written into account's key-value bucket (as
// account writes them) reach every gateway; a member's call is signed with their role there, a stranger is refused
// NOT_A_MEMBER before anything is proxied, and a removal refuses the next call and ends the open live streams.
import { randomUUID } from 'node:crypto';
import { WORKSPACE_HEADER, WORKSPACE_MEMBERS_BUCKET } from '@pagecast/contracts';
import {
  connectNats,
  createLogger,
  type KV,
  type Nats,
  openKeyValue,
  verifyIdentityHeader,
} from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server';
import {
  cookieHeader,
  createKeys,
  type Keys,
  startEchoService,
  startFakeAccount,
  startGateway,
  waitFor,
} from './support';

const SECRET = testEnv().INTERNAL_SECRET;
let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let files: Awaited<ReturnType<typeof startEchoService>>;
let nats: Nats;
let kv: KV;
const gateways: Array<{ gateway: Gateway; url: string }> = [];

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  files = await startEchoService('file-conversion');
  nats = await connectNats(testEnv().NATS_URL, createLogger('test', 'silent'), 'gateway-workspaces-test');
  kv = await openKeyValue(nats, WORKSPACE_MEMBERS_BUCKET, { ttlMs: 0 });
  for (let i = 0; i < 2; i++) {
    gateways.push(
      await startGateway({
        ACCOUNT_URL: account.url,
        FILES_URL: files.url,
        MARKETPLACE_URL: files.url,
        BILLING_URL: files.url,
        SCREENS_URL: files.url,
        SSE_HEARTBEAT_MS: '300',
      }),
    );
  }
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.gateway.close()));
  await nats?.nc.close();
  await Promise.all([account?.close(), files?.close()]);
});

const person = async () => {
  const userId = `u-${randomUUID()}`;
  const sessionId = `s-${randomUUID()}`;
  return { userId, sessionId, token: await keys.sign({ sub: userId, sid: sessionId }) };
};
type Person = Awaited<ReturnType<typeof person>>;

/** As account writes a membership: key `<workspaceId>.<userId>`, value {role, v}. */
const putMember = (workspaceId: string, userId: string, role: string) =>
  kv.put(`${workspaceId}.${userId}`, JSON.stringify({ role, v: 1 }));

/** A call to GET /api/files through a gateway, naming a workspace (or not); what file-conversion received. */
async function listFiles(base: string, who: Person, workspaceId?: string) {
  const url = `/api/files?probe=${randomUUID()}`;
  const res = await fetch(`${base}${url}`, {
    headers: { cookie: cookieHeader(who.token), ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) },
  });
  const body = (await res.json()) as { code?: string };
  const seen = files.seen.find((s) => s.url === url);
  return {
    status: res.status,
    body,
    seen,
    identity: seen ? verifyIdentityHeader(seen.headers['x-pagecast-identity'] as string, SECRET) : null,
  };
}

/** An open live stream; `ended` turns true when the gateway closes it. */
async function openStream(base: string, who: Person, query = '') {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/api/events${query ? `?${query}` : ''}`, {
    headers: { cookie: cookieHeader(who.token) },
    signal: ctrl.signal,
  });
  const state = { ended: false, text: '' };
  if (res.status === 200 && res.body) {
    const reader = res.body.getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          state.text += new TextDecoder().decode(value);
        }
      } catch {
        // aborted by the test
      }
      state.ended = true;
    })();
  }
  return { res, state, close: () => ctrl.abort() };
}

describe('the workspace a call acts in', () => {
  it("a member's call is signed with the workspace and their role there, on every gateway", async () => {
    const owner = await person();
    const member = await person();
    await putMember(owner.userId, member.userId, 'editor');
    for (const { url } of gateways) {
      const call = await waitFor(async () => {
        const c = await listFiles(url, member, owner.userId);
        return c.status === 200 ? c : undefined;
      });
      expect(call.identity).toMatchObject({
        userId: member.userId,
        sessionId: member.sessionId,
        workspaceId: owner.userId,
        role: 'editor',
      });
      // the raw header is not passed on: services read the signed identity only
      expect(call.seen?.headers[WORKSPACE_HEADER]).toBeUndefined();
    }
  });

  it("a page's images and videos follow the workspace its calls name: a cookie the gateway sets and clears, never a refusal", async () => {
    const owner = await person();
    const member = await person();
    await putMember(owner.userId, member.userId, 'viewer');
    const { url } = gateways[0] as { url: string };
    const call = (path: string, cookie: string, workspaceId?: string) =>
      fetch(`${url}${path}`, {
        headers: { cookie, ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) },
      });
    const mediaIdentity = async (cookie: string) => {
      const id = randomUUID();
      await (await call(`/media/video/${id}`, cookie)).text();
      // file-conversion decides (the gateway then reads the bytes from storage): its check carries the identity
      const seen = files.seen.find((s) => s.url === `/internal/video-access/${id}`);
      return seen ? verifyIdentityHeader(seen.headers['x-pagecast-identity'] as string, SECRET) : null;
    };
    // a call naming the workspace leaves the cookie (HttpOnly: no script sets it)
    const named = await waitFor(async () => {
      const res = await call('/api/files', cookieHeader(member.token), owner.userId);
      return res.status === 200 ? res : undefined;
    });
    const set = named.headers.getSetCookie().find((c) => c.startsWith('pc_ws='));
    expect(set).toContain(`pc_ws=${owner.userId}`);
    expect(set).toContain('HttpOnly');
    const withCookie = `${cookieHeader(member.token)}; pc_ws=${owner.userId}`;
    // a video (an element that sends no header) is then asked in that workspace, with the member's role there
    expect(await mediaIdentity(withCookie)).toMatchObject({
      userId: member.userId,
      workspaceId: owner.userId,
      role: 'viewer',
    });
    // the same call again sets nothing; a call in the person's own workspace clears it
    const again = await call('/api/files', withCookie, owner.userId);
    expect(again.headers.getSetCookie().some((c) => c.startsWith('pc_ws='))).toBe(false);
    const own = await call('/api/files', withCookie);
    expect(own.headers.getSetCookie().find((c) => c.startsWith('pc_ws='))).toContain('Max-Age=0');
    // a cookie naming a workspace the person is not in is no refusal: their own images, as ever
    const stranger = await person();
    const strangers = await mediaIdentity(`${cookieHeader(stranger.token)}; pc_ws=${owner.userId}`);
    expect(strangers).toMatchObject({ userId: stranger.userId });
    expect(strangers?.workspaceId).toBeUndefined();
  });

  it('no header, or the caller’s own id: their own workspace, signed without workspace or role', async () => {
    const me = await person();
    const [gw] = gateways;
    for (const named of [undefined, me.userId]) {
      const call = await listFiles(gw?.url ?? '', me, named);
      expect(call.status).toBe(200);
      expect(call.identity?.userId).toBe(me.userId);
      expect(call.identity).not.toHaveProperty('workspaceId');
      expect(call.identity).not.toHaveProperty('role');
    }
  });

  it('a stranger naming a workspace is refused NOT_A_MEMBER and nothing reaches the service', async () => {
    const owner = await person();
    const stranger = await person();
    const [gw] = gateways;
    const call = await listFiles(gw?.url ?? '', stranger, owner.userId);
    expect(call.status).toBe(403);
    expect(call.body.code).toBe('NOT_A_MEMBER');
    expect(call.seen).toBeUndefined();
    const stream = await openStream(gw?.url ?? '', stranger, `workspace=${owner.userId}`);
    expect(stream.res.status).toBe(403);
    expect(((await stream.res.json()) as { code: string }).code).toBe('NOT_A_MEMBER');
  });

  it('after a removal the next call is refused within 2 s on every gateway, and the open stream in that workspace ends', async () => {
    const owner = await person();
    const member = await person();
    await putMember(owner.userId, member.userId, 'viewer');
    for (const { url } of gateways) {
      await waitFor(async () => ((await listFiles(url, member, owner.userId)).status === 200 ? true : undefined));
    }
    const [gw] = gateways;
    const inWorkspace = await openStream(gw?.url ?? '', member, `workspace=${owner.userId}`);
    const own = await openStream(gw?.url ?? '', member);
    expect(inWorkspace.res.status).toBe(200);
    expect(own.res.status).toBe(200);
    await waitFor(async () => (inWorkspace.state.text.includes('event: ready') ? true : undefined));

    const removedAt = Date.now();
    await kv.delete(`${owner.userId}.${member.userId}`);
    for (const { url } of gateways) {
      await waitFor(async () => ((await listFiles(url, member, owner.userId)).status === 403 ? true : undefined), 2000);
    }
    await waitFor(async () => (inWorkspace.state.ended ? true : undefined), 2000);
    const refusedWithinMs = Date.now() - removedAt;
    expect(refusedWithinMs).toBeLessThan(2000);
    // the person's own workspace is untouched: their other stream stays open, their own calls pass
    await new Promise((r) => setTimeout(r, 400));
    expect(own.state.ended).toBe(false);
    expect((await listFiles(gw?.url ?? '', member)).status).toBe(200);
    const refused = await listFiles(gw?.url ?? '', member, owner.userId);
    expect(refused.body.code).toBe('NOT_A_MEMBER');
    own.close();
  });

  it('a change of role ends the streams acting in that workspace (the page reads its role again); the same role republished does not', async () => {
    const owner = await person();
    const member = await person();
    await putMember(owner.userId, member.userId, 'editor');
    const [gw] = gateways;
    const base = gw?.url ?? '';
    await waitFor(async () => ((await listFiles(base, member, owner.userId)).status === 200 ? true : undefined));
    const first = await openStream(base, member, `workspace=${owner.userId}`);
    const own = await openStream(base, member);
    expect(first.res.status).toBe(200);
    await waitFor(async () => (first.state.text.includes('event: ready') ? true : undefined));

    // account's startup reconciliation puts a value again with the same role: nothing ends
    await putMember(owner.userId, member.userId, 'editor');
    await new Promise((r) => setTimeout(r, 600));
    expect(first.state.ended).toBe(false);

    const changedAt = Date.now();
    await putMember(owner.userId, member.userId, 'viewer');
    await waitFor(async () => (first.state.ended ? true : undefined), 2000);
    expect(Date.now() - changedAt).toBeLessThan(2000);
    // the next call carries the new role; a stream opened again stays open; the person's own stream never ended
    const after = await listFiles(base, member, owner.userId);
    expect(after.status).toBe(200);
    expect(after.identity).toMatchObject({ workspaceId: owner.userId, role: 'viewer' });
    const again = await openStream(base, member, `workspace=${owner.userId}`);
    expect(again.res.status).toBe(200);
    expect(own.state.ended).toBe(false);
    again.close();
    own.close();
  });

  it("a Screens page acting in a workspace hears that workspace's screens, and not the member's own page", async () => {
    const owner = await person();
    const member = await person();
    await putMember(owner.userId, member.userId, 'viewer');
    const [gw] = gateways;
    await waitFor(async () =>
      (await listFiles(gw?.url ?? '', member, owner.userId)).status === 200 ? true : undefined,
    );
    const inWorkspace = await openStream(gw?.url ?? '', member, `screens=mine&workspace=${owner.userId}`);
    const own = await openStream(gw?.url ?? '', member, 'screens=mine');
    expect([inWorkspace.res.status, own.res.status]).toEqual([200, 200]);
    await waitFor(async () => (inWorkspace.state.text.includes('event: ready') ? true : undefined));
    // the bucket as the screens service opens it (services/screens/src/data/statuses.ts): a report of the owner's screen
    const statuses = await openKeyValue(nats, 'screen_status', { ttlMs: 86_400_000 });
    const screenId = randomUUID();
    const status = JSON.stringify({
      screenId,
      ownerId: owner.userId,
      lastSeenAt: new Date().toISOString(),
      nowPlaying: null,
      appVersion: 'test',
      screenSize: { width: 1920, height: 1080 },
    });
    // reported until heard: the status feed starts following once a Screens page is open
    await waitFor(async () => {
      await statuses.put(screenId, status);
      await new Promise((r) => setTimeout(r, 100));
      return inWorkspace.state.text.includes(screenId) ? true : undefined;
    });
    expect(own.state.text).not.toContain(screenId);
    inWorkspace.close();
    own.close();
  });

  it('signing out is never refused, even from a page still naming a workspace one was removed from', async () => {
    const owner = await person();
    const removed = await person();
    const [gw] = gateways;
    const res = await fetch(`${gw?.url}/api/logout`, {
      headers: { cookie: cookieHeader(removed.token), [WORKSPACE_HEADER]: owner.userId },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const seen = account.seen.filter((s) => s.url === '/api/logout').at(-1);
    expect(verifyIdentityHeader(seen?.headers['x-pagecast-identity'] as string, SECRET)).toMatchObject({
      userId: removed.userId,
    });
  });

  it('a gateway started after the memberships were written knows them (the bucket read from its start)', async () => {
    const owner = await person();
    const member = await person();
    await putMember(owner.userId, member.userId, 'publisher');
    const late = await startGateway({
      ACCOUNT_URL: account.url,
      FILES_URL: files.url,
      MARKETPLACE_URL: files.url,
      BILLING_URL: files.url,
      SCREENS_URL: files.url,
    });
    gateways.push(late);
    // no wait: the gateway serves once the bucket's values at its start are in memory
    const call = await listFiles(late.url, member, owner.userId);
    expect(call.status).toBe(200);
    expect(call.identity).toMatchObject({ workspaceId: owner.userId, role: 'publisher' });
  });
});
