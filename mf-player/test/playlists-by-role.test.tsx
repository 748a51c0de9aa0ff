// @vitest-environment jsdom
// The playlists tab in a workspace: create, edit and delete are left out for a role that may not change playlists
// (the policy's playlists.write: owner, admin, editor); play stays. The network is an in-test server.
import type { WorkspaceRole } from '@pagecast/contracts';
import { setCurrentWorkspace } from '@pagecast/ui';
import { afterEach, describe, expect, it } from 'vitest';
import { PlaylistsTab } from '../src/features/playlists/components/playlists-tab';
import { allByTestId, json, net, render, settle, setupDom, workspacesActingAs } from './dom-harness';

setupDom();

const playlist = {
  id: 'pl1',
  userId: 'shop',
  name: 'Lunch',
  description: null,
  itemCount: 2,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
};

function serve(role: WorkspaceRole) {
  net.serve = ({ path }) => {
    if (path === '/api/playlists') return json([playlist]);
    if (path === '/api/workspaces') return workspacesActingAs(role);
    return undefined;
  };
}

const controls = () => ({
  create: allByTestId('playlist-new').length,
  edit: allByTestId('playlist-edit').length,
  remove: allByTestId('playlist-delete').length,
  rows: allByTestId('playlist-row').length,
});

afterEach(() => setCurrentWorkspace(undefined));

describe('the playlists tab by role', () => {
  it('offers create, edit and delete in the person’s own workspace', async () => {
    serve('viewer');
    await render(<PlaylistsTab />);
    await settle(12);
    expect(controls()).toEqual({ create: 1, edit: 1, remove: 1, rows: 1 });
  });

  for (const role of ['viewer', 'broadcaster', 'publisher'] as const) {
    it(`a ${role} in another's workspace sees the playlists and no way to change them`, async () => {
      serve(role);
      setCurrentWorkspace('shop');
      await render(<PlaylistsTab />);
      await settle(12);
      expect(controls()).toEqual({ create: 0, edit: 0, remove: 0, rows: 1 });
      expect(document.body.textContent).toContain('Lunch');
    });
  }

  it('an editor there may change them', async () => {
    serve('editor');
    setCurrentWorkspace('shop');
    await render(<PlaylistsTab />);
    await settle(12);
    expect(controls()).toEqual({ create: 1, edit: 1, remove: 1, rows: 1 });
  });
});
