import { accountRoutes } from './api/auth';
import { auditRoutes } from './api/audit';
import { contactRoutes } from './api/contact';
import { dashboardRoutes } from './api/dashboard';
import { deviceSocketRoutes } from './api/device-socket';
import { filesRoutes } from './api/files';
import { resumableUploadRoutes } from './api/resumable-upload';
import { marketplaceRoutes } from './api/marketplace';
import { membershipRoutes } from './api/membership';
import { playProofRoutes } from './api/play-proof';
import { playlistsRoutes } from './api/playlists';
import { pointsRoutes } from './api/points';
import { screenAlertRoutes } from './api/screen-alerts';
import { screenFleetRoutes } from './api/screen-fleet';
import { approvalRoutes, ROUTES_THAT_MAY_WAIT, waitsForApproval } from './api/approvals';
import { screenHealthRoutes } from './api/screen-health';
import { screenScaleRoutes } from './api/screen-scale';
import { screensRoutes } from './api/screens';
import { userRoutes } from './api/user';
import { workspaceRoutes } from './api/workspaces';
import type { RouteDef } from './route-def';
import type { ServiceName } from './services';

/**
 * Every HTTP call of the spec's point 7, plus /api/login, /api/logout, the payment webhook, page images and the
 * atomic playlist save (PUT /api/playlists/:id/items).
 */
export const apiRoutes: RouteDef[] = [
  ...accountRoutes,
  ...userRoutes,
  ...workspaceRoutes,
  ...contactRoutes,
  ...filesRoutes,
  ...resumableUploadRoutes,
  ...playlistsRoutes,
  ...dashboardRoutes,
  ...marketplaceRoutes,
  ...pointsRoutes,
  ...membershipRoutes,
  ...screensRoutes,
  ...deviceSocketRoutes,
  ...playProofRoutes,
  ...screenFleetRoutes,
  ...approvalRoutes,
  ...screenAlertRoutes,
  ...screenHealthRoutes,
  ...screenScaleRoutes,
  ...auditRoutes,
].map((route) =>
  (ROUTES_THAT_MAY_WAIT as readonly string[]).includes(route.id) ? { ...route, alsoAnswers: waitsForApproval } : route,
);

export function routesFor(service: ServiceName): RouteDef[] {
  return apiRoutes.filter((route) => route.service === service);
}

function segments(path: string): string[] {
  const clean = (path.split('?')[0] ?? '').replace(/\/+$/, '');
  return clean.split('/').slice(1);
}

interface Compiled {
  route: RouteDef;
  parts: string[];
  /** static segments count first so '/api/files/accessible' beats '/api/files/:id' */
  staticCount: number;
}

let compiled: Compiled[] | undefined;
function table(): Compiled[] {
  compiled ??= apiRoutes
    .map((route) => {
      const parts = segments(route.path);
      return { route, parts, staticCount: parts.filter((p) => !p.startsWith(':')).length };
    })
    .sort((a, b) => b.staticCount - a.staticCount);
  return compiled;
}

/** The route and its path parameters for a method and a concrete path (query string ignored). */
export function matchRoute(
  method: string,
  path: string,
): { route: RouteDef; params: Record<string, string> } | undefined {
  const m = method.toLowerCase();
  // HEAD is answered by the path's GET unless a route takes HEAD itself (the resumable upload's offset)
  const accepts = (r: RouteDef) => r.method === m || (m === 'head' && r.method === 'get');
  const actual = segments(path);
  const candidates = table();
  const ordered = m === 'head' ? [...candidates.filter((c) => c.route.method === 'head'), ...candidates] : candidates;
  for (const { route, parts } of ordered) {
    if (!accepts(route) || parts.length !== actual.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const value = actual[i] as string;
      if (part.startsWith(':')) {
        if (!value) {
          ok = false;
          break;
        }
        try {
          params[part.slice(1)] = decodeURIComponent(value);
        } catch {
          ok = false;
          break;
        }
      } else if (part !== value) {
        ok = false;
        break;
      }
    }
    if (ok) return { route, params };
  }
  return undefined;
}

/** Matches '/api/files/abc' to the route of '/api/files/:id'. */
export function findRoute(method: string, path: string): RouteDef | undefined {
  return matchRoute(method, path)?.route;
}
