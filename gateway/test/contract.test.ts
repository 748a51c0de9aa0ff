// The stand-ins' answers are checked against the contracts (contract.ts): a stand-in that drifts from what the real
// service answers fails the test that uses it, with the drift named.
import { randomBytes } from 'node:crypto';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractDrift, fakeAnswer, sendAnswer, takeDrifts } from './contract';
import { closeServer, listen } from './support';

afterEach(() => {
  // the drifts these tests make on purpose are asserted here, not reported by the setup file
  takeDrifts();
});

describe('stand-in answers against the contracts', () => {
  it('passes what the route answers: its schema, its success status, a known code with its status, image bytes', () => {
    expect(fakeAnswer('files.mediaAccess', 200, { access: 'licence', maxAgeMs: 3000 })).toEqual({
      access: 'licence',
      maxAgeMs: 3000,
    });
    expect(fakeAnswer('account.sessionRefresh', 200, { token: 't', expiresAt: 1_900_000_000 })).toBeTruthy();
    expect(fakeAnswer('deviceHeartbeat', 200, { ok: true })).toEqual({ ok: true });
    expect(fakeAnswer('logout', 302, null)).toBeNull();
    expect(fakeAnswer('getMedia', 404, { code: 'NOT_FOUND', message: 'x' })).toMatchObject({ code: 'NOT_FOUND' });
    const bytes = randomBytes(10);
    expect(fakeAnswer('files.mediaBytes', 200, bytes)).toBe(bytes);
    expect(takeDrifts()).toEqual([]);
  });

  it('refuses a drifted answer: a renamed field, a wrong success status, an error without its message or status', () => {
    // the access check's `maxAgeMs` as an older stand-in might have called it
    expect(() => fakeAnswer('files.mediaAccess', 200, { access: 'owner', maxAge: 60_000 })).toThrow(ContractDrift);
    expect(() => fakeAnswer('files.mediaAccess', 200, { access: 'everyone', maxAgeMs: 1 })).toThrow(/access/);
    // what screens' stand-in answered every route before: not a DeviceScreen
    expect(() => fakeAnswer('deviceScreen', 200, { ok: true })).toThrow(ContractDrift);
    // the logout navigation is a 302, not a 200
    expect(() => fakeAnswer('logout', 200, null)).toThrow(/a success is 302/);
    // an error body needs its message; a code comes with its own status
    expect(() => fakeAnswer('files.mediaAccess', 401, { code: 'UNAUTHORIZED' })).toThrow(/message/);
    expect(() => fakeAnswer('getMedia', 404, { code: 'UNAUTHORIZED', message: 'x' })).toThrow(/answered with 401/);
    expect(() => fakeAnswer('getMedia', 404, { code: 'NO_SUCH_CODE', message: 'x' })).toThrow(/no error code/);
    expect(() => fakeAnswer('files.mediaBytes', 200, 'not bytes')).toThrow(/bytes expected/);
    expect(() => fakeAnswer('noSuchRoute', 200, {})).toThrow(/no such route/);
    expect(takeDrifts()).toHaveLength(9);
  });

  it('a stand-in answering a drifted body over HTTP answers 500 naming the drift, and the drift is reported', async () => {
    const app = express();
    app.get('/internal/media-access/:key', (_req, res) => {
      sendAnswer(res, 'files.mediaAccess', 200, { access: 'owner', ttlMs: 60_000 });
    });
    const { server, url } = await listen(app);
    try {
      const res = await fetch(`${url}/internal/media-access/x.webp`);
      expect(res.status).toBe(500);
      expect(await res.text()).toMatch(/files\.mediaAccess \(200\) drifts from the contract: .*maxAgeMs/s);
      // what the setup file fails the test with
      expect(takeDrifts()).toEqual([expect.stringMatching(/files\.mediaAccess \(200\) drifts/)]);
    } finally {
      await closeServer(server);
    }
  });
});
