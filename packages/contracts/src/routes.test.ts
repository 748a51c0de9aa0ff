import { describe, expect, it } from 'vitest';
import { apiRoutes, findRoute, matchRoute, routesFor } from './routes';
import { ServiceName, serviceForPath } from './services';

describe('route table', () => {
  it('has each method+path and each id once', () => {
    const keys = apiRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = apiRoutes.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('covers every call of the spec', () => {
    const expected = [
      'get /api/auth/user',
      'post /api/auth/local-login',
      'post /api/auth/register',
      'post /api/auth/request-password-reset',
      'post /api/auth/reset-password',
      'post /api/auth/verify-email',
      'post /api/auth/resend-verification',
      'post /api/auth/migrate-account',
      'post /api/auth/mark-welcome-seen',
      'get /api/dashboard/stats',
      'get /api/files',
      'get /api/files/accessible',
      'post /api/files/upload',
      'get /api/files/:id/copyright',
      'put /api/files/:id/publish',
      'get /api/files/:id/purchasers',
      'get /api/files/:id/preview',
      'get /api/files/:id/preview/:page',
      'delete /api/files/:id',
      'put /api/files/:id/duration',
      'put /api/files/:id/display-mode',
      'put /api/files/:id',
      'get /api/files/:id',
      'get /api/files/:id/pages',
      'get /api/marketplace',
      'post /api/marketplace/purchase/:id',
      'post /api/create-payment-intent',
      'post /api/points/purchase',
      'get /api/points/history',
      'post /api/membership/upgrade',
      'post /api/membership/schedule-downgrade',
      'delete /api/membership/cancel-downgrade',
      // billing's additions: the dialog's configuration, the four cards, the membership card, the server-side confirm
      'get /api/billing/config',
      'get /api/points/summary',
      'get /api/membership/status',
      'post /api/points/confirm-payment',
      'put /api/user/profile',
      'put /api/user/password',
      'get /api/playlists',
      'post /api/playlists',
      'get /api/playlists/:id/items',
      'post /api/playlists/:id/items',
      'put /api/playlists/:id/items',
      'delete /api/playlists/:id/items/:fileId',
      'delete /api/playlists/:id',
      'post /api/contact',
      'get /api/login',
      'get /api/logout',
      'post /api/payments/webhook',
      'get /media/:key',
      'get /media/video/:id',
      // a video on sale's watermarked preview clip
      'get /media/video/:id/preview',
      // the resumable (tus) upload of photos and videos
      'post /api/files/uploads',
      'head /api/files/uploads/:uploadId',
      'patch /api/files/uploads/:uploadId',
      'delete /api/files/uploads/:uploadId',
      // screens
      'post /api/screens/pairing',
      'post /api/screens/pairing/:pairingId/poll',
      'post /api/screens',
      'get /api/screens',
      'put /api/screens/:id',
      'delete /api/screens/:id',
      'get /api/screens/plays',
      'get /api/screens/plays/proof',
      'get /api/screens/plays/sold',
      'get /api/screens/plays/sold/proof',
      'get /api/screens/plays/refused',
      'get /api/screens/device/me',
      'post /api/screens/device/heartbeat',
      'post /api/screens/device/key',
      'post /api/screens/device/plays',
      // the display's socket (upgraded by the gateway)
      'get /api/screens/device/socket',
      // fleet control
      'get /api/screens/groups',
      'post /api/screens/groups',
      'put /api/screens/groups/order',
      'put /api/screens/groups/:groupId',
      'delete /api/screens/groups/:groupId',
      'get /api/screens/groups/:groupId/agenda',
      'post /api/screens/bulk',
      'get /api/screens/takeovers',
      'post /api/screens/takeovers',
      'get /api/screens/takeovers/log',
      'delete /api/screens/takeovers/:takeoverId',
      // disaster alerts
      'get /api/screens/alert-rules',
      'put /api/screens/alert-rules',
      'get /api/screens/takeover-templates',
      'post /api/screens/takeover-templates',
      'put /api/screens/takeover-templates/:templateId',
      'delete /api/screens/takeover-templates/:templateId',
      'get /api/screens/:id/agenda',
      // fleet health
      'get /api/screens/health',
      'get /api/screens/:id/incidents',
      // fleets at scale
      'post /api/screens/bulk-pairing',
      // workspaces: memberships and invitations
      'get /api/workspaces',
      'get /api/workspaces/:id/members',
      'patch /api/workspaces/:id/members/:userId',
      'delete /api/workspaces/:id/members/:userId',
      'post /api/workspaces/:id/invitations',
      'get /api/workspaces/:id/invitations',
      'delete /api/workspaces/:id/invitations/:invitationId',
      'get /api/invitations/:token',
      'post /api/invitations/:token/accept',
      // the audit log
      'get /api/workspaces/:id/audit',
      'get /api/workspaces/:id/audit.csv',
      // approval
      'put /api/workspaces/:id/settings',
      'get /api/screens/proposals',
      'get /api/screens/proposals/:proposalId',
      'post /api/screens/proposals/:proposalId/approve',
      'post /api/screens/proposals/:proposalId/reject',
      'delete /api/screens/proposals/:proposalId',
    ];
    expect(apiRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(expected.sort());
  });

  it('sends every route to the service that owns its prefix at the gateway', () => {
    for (const route of apiRoutes) {
      expect(serviceForPath(route.path.replace(/:(\w+)/g, 'x')), route.path).toBe(route.service);
    }
  });

  it('marks the logged-out calls public or optional and everything else session', () => {
    const open = apiRoutes.filter((r) => r.auth !== 'session').map((r) => `${r.auth} ${r.method} ${r.path}`);
    expect(open.sort()).toEqual(
      [
        'optional get /api/auth/user',
        'public post /api/auth/local-login',
        'public post /api/auth/register',
        'public post /api/auth/request-password-reset',
        'public post /api/auth/reset-password',
        'public post /api/auth/verify-email',
        'public post /api/auth/resend-verification',
        'optional post /api/contact',
        'public get /api/login',
        'optional get /api/logout',
        'optional get /api/files/:id',
        'optional get /api/files/:id/pages',
        'optional get /api/playlists/:id/items',
        'public post /api/payments/webhook',
        'public get /api/billing/config',
        'optional get /media/:key',
        'optional get /media/video/:id',
        'public post /api/screens/pairing',
        'public post /api/screens/pairing/:pairingId/poll',
        'device get /api/screens/device/me',
        'device post /api/screens/device/heartbeat',
        'device post /api/screens/device/key',
        'device post /api/screens/device/plays',
        'device get /api/screens/device/socket',
        'public get /api/invitations/:token',
      ].sort(),
    );
  });

  it('splits the routes among the services', () => {
    const total = ServiceName.options.reduce((n, s) => n + routesFor(s).length, 0);
    expect(total).toBe(apiRoutes.length);
    expect(
      routesFor('marketplace')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['purchaseFile', 'searchMarketplace']);
  });
});

describe('findRoute', () => {
  it('matches concrete paths to parameterised routes', () => {
    expect(findRoute('GET', '/api/files/abc')?.id).toBe('getFile');
    expect(findRoute('DELETE', '/api/files/abc')?.id).toBe('deleteFile');
    expect(findRoute('put', '/api/files/abc/display-mode')?.id).toBe('updateFileDisplayMode');
    expect(findRoute('delete', '/api/playlists/p1/items/f1')?.id).toBe('removePlaylistItem');
    expect(findRoute('post', '/api/marketplace/purchase/f9')?.id).toBe('purchaseFile');
  });

  it('prefers a literal segment to a parameter', () => {
    expect(findRoute('get', '/api/files/accessible')?.id).toBe('listAccessibleFiles');
    expect(findRoute('post', '/api/files/upload')?.id).toBe('uploadFile');
    // HEAD is a GET unless the path takes HEAD itself (the resumable upload's offset)
    expect(findRoute('HEAD', '/api/files/abc')?.id).toBe('getFile');
    expect(findRoute('HEAD', '/api/files/uploads/abc')?.id).toBe('resumableUploadOffset');
    expect(findRoute('PATCH', '/api/files/uploads/abc')?.id).toBe('appendResumableUpload');
    expect(findRoute('POST', '/api/files/uploads')?.id).toBe('createResumableUpload');
  });

  it('ignores the query string and a trailing slash, and treats HEAD as GET', () => {
    expect(findRoute('get', '/api/files/abc/pages?signage_mode=true')?.id).toBe('getFilePages');
    expect(findRoute('get', '/api/files/')?.id).toBe('listFiles');
    expect(findRoute('HEAD', '/media/abc.webp')?.id).toBe('getMedia');
  });

  it('returns decoded parameters', () => {
    const match = matchRoute('delete', '/api/playlists/p%201/items/f-2');
    expect(match?.params).toEqual({ id: 'p 1', fileId: 'f-2' });
  });

  it('finds nothing for unknown paths, wrong methods and extra segments', () => {
    expect(findRoute('get', '/api/nothing')).toBeUndefined();
    expect(findRoute('post', '/api/files/abc')).toBeUndefined();
    expect(findRoute('get', '/api/files/abc/pages/extra')).toBeUndefined();
    expect(findRoute('get', '/api/files//pages')).toBeUndefined();
  });

  it('leaves gateway-owned paths to nobody', () => {
    expect(serviceForPath('/api/events')).toBeUndefined();
    expect(serviceForPath('/remotes.json')).toBeUndefined();
    expect(serviceForPath('/api/points/history?x=1')).toBe('billing');
  });
});
