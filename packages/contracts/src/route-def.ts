import type { z } from 'zod';
import type { ServiceName } from './services';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
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
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** body is multipart/form-data; `body` then describes its text fields */
  multipart?: boolean;
  /** multipart field holding the uploaded file */
  fileField?: string;
  response: z.ZodType;
  /** success status when not 200 (302 for the navigations /api/login and /api/logout) */
  successStatus?: number;
  /** content type of the success answer when not JSON (page images) */
  responseContentType?: string;
}

/** Keeps literal checking on a route list while typing it as RouteDef[]. */
export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
