// @vitest-environment jsdom
// File management in a workspace: the upload buttons are left out for a role that may not upload (the policy's
// files.write: owner, admin, editor), and the page's reads name the workspace. Real catalogues, query client and
// router; the network is an in-test server.
import type { WorkspaceRole } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { setCurrentWorkspace } from '@pagecast/ui';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { filesPageHost, json } from './files-page-host';

let role: WorkspaceRole;
let named: Array<string | null>;

beforeAll(async () => {
  await initI18n({ lng: 'ja' });
});

const page = filesPageHost((path, init) => {
  if (path === '/api/files') named.push(new Headers(init?.headers).get('x-pagecast-workspace'));
  if (path === '/api/auth/user') return json({ id: 'me', email: 'me@example.test' });
  if (path === '/api/workspaces') {
    return json({
      workspaces: [
        { id: 'me', name: 'Me', ownerId: 'me', role: 'owner', approvalRequired: false },
        { id: 'shop', name: 'Shop', ownerId: 'shop', role, approvalRequired: false },
      ],
    });
  }
  if (path === '/api/files' || path === '/api/files/accessible') return json([]);
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

beforeEach(() => {
  named = [];
});

afterEach(() => {
  setCurrentWorkspace(undefined);
});

const render = () => page.render('/files');

const has = (id: string) => document.querySelector(`[data-testid="${id}"]`) !== null;

describe('File management by role', () => {
  it('offers the upload in the person’s own workspace', async () => {
    role = 'viewer';
    await render();
    expect(has('files-upload')).toBe(true);
    expect(has('files-empty-upload')).toBe(true);
    expect(named).toEqual([null]);
  });

  it('leaves it out for a viewer, a publisher and a broadcaster of another workspace, not for an editor', async () => {
    for (const [r, shown] of [
      ['viewer', false],
      ['publisher', false],
      ['broadcaster', false],
      ['editor', true],
    ] as const) {
      role = r;
      setCurrentWorkspace('shop');
      await render();
      expect([r, has('files-upload'), has('files-empty-upload')]).toEqual([r, shown, shown]);
      expect(has('files-empty')).toBe(true);
      expect(named.at(-1)).toBe('shop');
      page.remount();
    }
  });
});
