import type { z } from 'zod';
import type { ServiceName } from './services';

/** 'patch' and 'head': the resumable upload's tus 1.0 calls (HEAD is otherwise answered by a GET route) */
export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head';
/** 'device': only a paired display's own credential (never a member session) */
export type RouteAuth = 'public' | 'session' | 'optional' | 'device';

export interface RouteDef {
  /** operation id, unique */
  id: string;
  method: HttpMethod;
  /** express style, e.g. '/api/files/:id' */
  path: string;
  service: ServiceName;
  /** 'session': the gateway refuses anonymous calls; 'optional': identity passed when there is one */
  auth: RouteAuth;
  /**
   * What the call does, as @pagecast/policy names it (`files.write`, `billing.spend`, `personal`...): the gateway
   * refuses a role that lacks it before proxying, and the service asks again. Every 'session' and 'optional' route has
   * one (packages/policy's test); 'public' and 'device' routes have none (no member acts there). A string here, not
   * policy's type: policy reads contracts' roles, so contracts cannot import it back.
   */
  action?: string;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** body is multipart/form-data; `body` then describes its text fields */
  multipart?: boolean;
  /** multipart field holding the uploaded file */
  fileField?: string;
  /** request headers the call reads (the resumable upload's Upload-Length, Upload-Offset, ...), as header params */
  headers?: z.ZodType;
  /** the body is raw bytes of this content type (a tus PATCH), not JSON */
  rawBody?: string;
  /** headers of the success answer: name → what it holds */
  responseHeaders?: Record<string, string>;
  /** a second success answer besides successStatus (the PATCH that completes a resumable upload: 200 FileSummary) */
  alsoAnswers?: { status: number; description: string; response: z.ZodType };
  response: z.ZodType;
  /** success status when not 200 (302 for the navigations /api/login and /api/logout) */
  successStatus?: number;
  /** content type of the success answer when not JSON (page images) */
  responseContentType?: string;
  /**
   * Whether a page of another site may make this call (refusesCrossSite). Unset: refused for post, put and delete
   * (they change state), allowed for get. 'allowed': a server-to-server call a browser never makes for a member (the
   * card provider's signed webhook); 'refused': a get that changes state (the logout navigation).
   */
  crossSite?: 'allowed' | 'refused';
  /** a WebSocket route (successStatus 101): the frames each way, in the OpenAPI document as x-pagecast-socket */
  socketFrames?: { up: z.ZodType; down: z.ZodType };
}

/**
 * Whether the gateway refuses this request when it comes from another site's page (Sec-Fetch-Site, else Origin):
 * 403 CROSS_SITE_REQUEST, or for a get (a navigation) a redirect to '/', and nothing changes. `route` is the one the
 * route table finds, if any: a state-changing method on a path it does not know is refused too.
 */
export function refusesCrossSite(method: string, route: Pick<RouteDef, 'crossSite'> | undefined): boolean {
  if (route?.crossSite) return route.crossSite === 'refused';
  const m = method.toLowerCase();
  return m !== 'get' && m !== 'head' && m !== 'options';
}

/** Keeps literal checking on a route list while typing it as RouteDef[]. */
export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
