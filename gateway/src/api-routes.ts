// The gateway's own /api answers (docs, live streams) and the rest of /api and /media, sent to the service that owns
// each path per the contracts' route table, with the caller's signed identity (server.ts).
import {
  DEVICE_SOCKET_PATH,
  errorMessagesJa,
  findRoute,
  IDENTITY_HEADER,
  type ServiceName,
  serviceForPath,
  WORKSPACE_HEADER,
} from '@pagecast/contracts';
import { signIdentityHeader } from '@pagecast/service-kit';
import compression from 'compression';
import type express from 'express';
import type { GatewayConfig } from './config';
import { createDeviceHeaders } from './device-headers';
import { docsPage, documentedServices } from './docs';
import { type EventsHub, watchKey } from './events';
import { requireSession, sendError, sendUnauthorized, sessionOf } from './identify';
import { readCookie, serializeCookie } from './cookies';
import {
  MEDIA_WORKSPACE_COOKIE,
  type MembershipStore,
  mediaWorkspace,
  resolveWorkspace,
  type WorkspaceResolution,
} from './memberships';
import type { VideoCaller, VideoServer } from './media-video';
import type { createServiceProxy } from './proxy';
import { refuseRole } from './role-check';
import type { SessionIdentity } from './session';

const DEVICE_MANIFEST_PATH = '/api/screens/device/me';
const VIDEO_PATH = /^\/media\/video\/([^/]+)(?:\/preview)?$/;

/** The file id of a video's path, decoded; undefined when it cannot be (left to file-conversion to refuse). */
function videoFileId(path: string): string | undefined {
  const raw = VIDEO_PATH.exec(path)?.[1];
  try {
    return raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Where each service answers. */
export function serviceTargets(config: GatewayConfig): Record<ServiceName, string> {
  return {
    account: config.ACCOUNT_URL,
    'file-conversion': config.FILES_URL,
    marketplace: config.MARKETPLACE_URL,
    billing: config.BILLING_URL,
    screens: config.SCREENS_URL,
  };
}

export function mountApi(
  app: express.Express,
  deps: {
    events: EventsHub;
    proxy: ReturnType<typeof createServiceProxy>;
    internalSecret: string;
    /** the Set-Cookie value that clears the session cookie */
    clearCookie: string;
    /** a display's identity header, signed once per 10 s (device-headers.ts) */
    deviceHeader?: ReturnType<typeof createDeviceHeaders>;
    /** the manifest version the displays' sockets know for a screen (device-socket.ts) */
    manifestVersion?: (screenId: string) => string | undefined;
    /** the manifest screens gave this device with that version, while it is current (device-socket.ts) */
    manifestFor?: (screenId: string, deviceId: string) => { version: string; json: string; at: number } | undefined;
    /** cookies the gateway sets carry Secure (PUBLIC_URL is https) */
    secureCookies?: boolean;
    /** the workspace memberships, watched from account's bucket (memberships.ts); none: every call acts as owner */
    memberships?: MembershipStore;
    /** videos read from storage by the gateway (media-video.ts); none: proxied to file-conversion */
    videos?: VideoServer;
  },
) {
  const { events, proxy, clearCookie } = deps;
  /** The workspace a member's request acts in (memberships.ts); undefined: refused, answered NOT_A_MEMBER. */
  const workspaceOf = (req: express.Request, res: express.Response, identity: SessionIdentity, query?: unknown) => {
    const resolved: WorkspaceResolution = deps.memberships
      ? resolveWorkspace(deps.memberships, identity.userId, req.headers, query)
      : {};
    if (resolved === 'not-a-member') {
      sendError(res, 403, 'NOT_A_MEMBER');
      return undefined;
    }
    return resolved;
  };
  const deviceHeader = deps.deviceHeader ?? createDeviceHeaders(deps.internalSecret);
  /** Sets (or clears, back in the person's own) the media workspace cookie when it differs from this call's. */
  const rememberMediaWorkspace = (req: express.Request, res: express.Response, workspaceId: string | undefined) => {
    if (!deps.memberships || (readCookie(req.headers, MEDIA_WORKSPACE_COOKIE) ?? '') === (workspaceId ?? '')) return;
    res.append(
      'Set-Cookie',
      serializeCookie(MEDIA_WORKSPACE_COOKIE, workspaceId ?? '', {
        secure: deps.secureCookies ?? false,
        maxAge: workspaceId ? undefined : 0,
      }),
    );
  };
  app.get('/api/docs', compression(), (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(docsPage());
  });
  app.get('/api/docs/:service/openapi.json', (req, res) => {
    const service = documentedServices.find((s) => s === req.params.service);
    if (!service) return sendError(res, 404, 'NOT_FOUND');
    req.url = '/openapi.json';
    return proxy(service, req, res);
  });
  // The display's socket is upgraded before express (device-socket.ts); a plain GET of its path is told to upgrade.
  app.get(DEVICE_SOCKET_PATH, (_req, res) => {
    res
      .status(426)
      .set({ 'Cache-Control': 'no-store', Upgrade: 'websocket' })
      .json({ code: 'MALFORMED_REQUEST', message: errorMessagesJa.MALFORMED_REQUEST });
  });
  // A display's manifest not modified: answered here when its screen's version is known from its socket (kept only
  // while no change was heard since screens gave it), with no trip to screens. Modified: answered here too when
  // screens gave that version's manifest for this very device with it (the display reads it right after the push or
  // its hello), the bytes and ETag screens would send, dated when screens gave them.
  app.get(DEVICE_MANIFEST_PATH, (req, res, next) => {
    const { identity, device } = sessionOf(res);
    const known = !identity && device ? deps.manifestVersion?.(device.screenId) : undefined;
    if (!device || !known || /no-cache/.test(req.headers['cache-control'] ?? '')) return next();
    if (req.headers['if-none-match'] === known) {
      return void res.status(304).set({ ETag: known, 'Cache-Control': 'no-store' }).end();
    }
    const kept = deps.manifestFor?.(device.screenId, device.deviceId);
    if (!kept) return next();
    res
      .status(200)
      .set({ ETag: kept.version, 'Cache-Control': 'no-store', Date: new Date(kept.at).toUTCString() })
      .type('json')
      .send(kept.json);
  });
  app.get('/api/events', (req, res) => {
    const { identity, device } = sessionOf(res);
    if (!identity && device) {
      // A display's stream: its own screen's changes, plus the playlists and files it asks to watch.
      const client = { userId: `screen:${device.screenId}`, sessionId: `device:${device.deviceId}` };
      return events.handler(req, res, client, [watchKey.screen(device.screenId)]);
    }
    requireSession(req, res, () => {
      const member = identity as SessionIdentity;
      // the workspace the page acts in: the header, or `workspace=` (an EventSource cannot set headers)
      const acting = workspaceOf(req, res, member, req.query.workspace);
      if (!acting) return;
      const workspaceId = acting.workspaceId ?? member.userId;
      // A Screens page (`screens=mine`) also hears its workspace's screens report: online, now playing, last seen.
      const own = req.query.screens === 'mine' ? [watchKey.owner(workspaceId)] : [];
      const client = acting.workspaceId ? { ...member, workspaceId: acting.workspaceId } : member;
      events.handler(req, res, client, own);
    });
  });

  // Everything else under /api and /media goes to the service that owns it, per the contracts' route table.
  app.use((req, res, next) => {
    const path = req.path;
    const isApi = path === '/api' || path.startsWith('/api/');
    const isMedia = path.startsWith('/media/');
    if (!isApi && !isMedia) return next();
    const route = findRoute(req.method, path);
    // Page image keys may hold slashes the route table's '/media/:key' does not: the prefix decides then.
    const service = route?.service ?? (isMedia ? serviceForPath(path) : undefined);
    const auth = route?.auth ?? 'optional';
    if (!service) return sendError(res, 404, 'NOT_FOUND');
    const locals = sessionOf(res);
    let caller: VideoCaller = { key: 'anonymous', subject: '' };
    // A display's credential never stands in for a member, and only a display may call the device routes.
    if (auth === 'session' && !locals.identity && locals.device) return sendError(res, 403, 'DEVICE_NOT_ALLOWED');
    if (auth === 'session' && !locals.identity) return requireSession(req, res, next);
    if (auth === 'device' && !locals.device) {
      return locals.deviceUnavailable ? sendError(res, 503, 'SERVICE_UNAVAILABLE') : sendUnauthorized(res);
    }
    if (locals.identity) {
      // the workspace the call acts in, and the caller's role there (absent: their own, as owner); signing out is
      // never refused, even from a page still naming a workspace the person was removed from
      const acting: Exclude<WorkspaceResolution, 'not-a-member'> | undefined = isMedia
        ? deps.memberships
          ? mediaWorkspace(deps.memberships, locals.identity.userId, req.headers)
          : {}
        : route?.id === 'logout'
          ? {}
          : workspaceOf(req, res, locals.identity);
      if (!acting) return;
      // the page's images and videos follow the workspace its calls name (they cannot carry the header)
      if (!isMedia && route?.id !== 'logout') rememberMediaWorkspace(req, res, acting.workspaceId);
      const identity = { ...locals.identity, ...acting };
      // a role without the route's action there: refused before anything reaches the service
      if (refuseRole(route, identity, res)) return;
      req.headers[IDENTITY_HEADER] = signIdentityHeader(identity, deps.internalSecret);
      const workspace = identity.workspaceId ?? identity.userId;
      caller = { key: `u:${identity.userId}:${workspace}:${identity.role ?? ''}`, subject: workspace };
    } else if (locals.device) {
      req.headers[IDENTITY_HEADER] = deviceHeader(locals.device);
      const { deviceId, screenId, ownerId } = locals.device;
      caller = { key: `d:${deviceId}`, subject: ownerId, screenId };
    }
    // services read the workspace from the signed identity only
    delete req.headers[WORKSPACE_HEADER];
    // Account clears the cookie on logout; the gateway does too, so a logout always logs out.
    if (path === '/api/logout') res.setHeader('Set-Cookie', [clearCookie]);
    // A video's bytes come from storage through the gateway alone, once file-conversion has decided (media-video.ts).
    const video = deps.videos && (route?.id === 'getFileVideo' || route?.id === 'getFileVideoPreview');
    const fileId = video ? videoFileId(path) : undefined;
    if (deps.videos && fileId) {
      const identity = req.headers[IDENTITY_HEADER];
      deps.videos.handle(
        req,
        res,
        caller,
        typeof identity === 'string' ? identity : undefined,
        fileId,
        route?.id === 'getFileVideoPreview',
      );
      return;
    }
    return proxy(service, req, res, route);
  });
}
