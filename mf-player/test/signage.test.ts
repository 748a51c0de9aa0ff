import { HttpError } from '@pagecast/ui';
import { describe, expect, it } from 'vitest';
import { classifyLoadError } from '../src/features/signage/model/load-item';

describe('player load errors (spec points 2 and 6)', () => {
  it('401 asks for a login, 403 and 404 are "not found", anything else is a failure', () => {
    expect(classifyLoadError(new HttpError(401, 'Unauthorized', ''))).toBe('login');
    expect(classifyLoadError(new HttpError(403, 'Forbidden', '{"code":"FORBIDDEN"}'))).toBe('not-found');
    expect(classifyLoadError(new HttpError(404, 'Not Found', '{"code":"FILE_NOT_FOUND"}'))).toBe('not-found');
    expect(classifyLoadError(new HttpError(500, 'Internal Server Error', ''))).toBe('failed');
    expect(classifyLoadError(new TypeError('Failed to fetch'))).toBe('failed');
  });
});

describe("mf_player './routes'", () => {
  it('exposes the components the shell routes /signage/:fileId, /playbook, /playback, /screens and /screen to', async () => {
    const routes = (await import('../src/routes/index')).default;
    expect(Object.keys(routes).sort()).toEqual([
      'DisplayPage',
      'FleetHealthPage',
      'FleetPage',
      'PlaylistsPage',
      'ProposalPage',
      'ProposalsPage',
      'ScreensPage',
      'SignagePage',
    ]);
    expect(typeof routes.SignagePage).toBe('function');
  });
});
