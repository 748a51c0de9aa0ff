// How the page-image path answers (media.ts), outside express: one writeHead and one end, with the security headers
// the gateway sets on every answer (precomputed) and header lists built once per kind of access.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessagesJa } from '@pagecast/contracts';

export const MEDIA_CACHE_CONTROL = 'private, max-age=31536000, immutable';
export const LICENCE_CACHE_CONTROL = 'private, no-cache';

type Access = 'owner' | 'licence';

export function mediaAnswers(securityHeaders: Array<[string, string]>) {
  // Header lists, built once: the security headers and the image's own, per kind of access.
  const security = securityHeaders.flat();
  const imageHeaders = {
    owner: [...security, 'content-type', 'image/webp', 'cache-control', MEDIA_CACHE_CONTROL],
    licence: [...security, 'content-type', 'image/webp', 'cache-control', LICENCE_CACHE_CONTROL],
  };
  const notModifiedHeaders = {
    owner: [...security, 'cache-control', MEDIA_CACHE_CONTROL],
    licence: [...security, 'cache-control', LICENCE_CACHE_CONTROL],
  };

  const sendJson = (
    res: ServerResponse,
    status: number,
    code: 'NOT_FOUND' | 'UNAUTHORIZED' | 'SERVICE_UNAVAILABLE',
    cookies: string[],
    requestId: string,
  ) => {
    // Exactly this 401 body, as the gateway's other 401s: the spec's client looks for "401" and "Unauthorized".
    const body = JSON.stringify({ code, message: code === 'UNAUTHORIZED' ? 'Unauthorized' : errorMessagesJa[code] });
    const headers = [
      ...security,
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(Buffer.byteLength(body)),
      'cache-control',
      'no-store',
      'x-request-id',
      requestId,
    ];
    for (const c of cookies) headers.push('set-cookie', c);
    res.writeHead(status, headers);
    res.end(body);
  };

  const notModified = (res: ServerResponse, access: Access, etag: string, cookies: string[], requestId: string) => {
    const headers = [...notModifiedHeaders[access], 'etag', etag, 'x-request-id', requestId];
    for (const c of cookies) headers.push('set-cookie', c);
    res.writeHead(304, headers);
    res.end();
  };

  const image = (
    req: IncomingMessage,
    res: ServerResponse,
    access: Access,
    body: Buffer,
    etag: string,
    cookies: string[],
    requestId: string,
  ) => {
    const headers = [
      ...imageHeaders[access],
      'content-length',
      String(body.length),
      'etag',
      etag,
      'x-request-id',
      requestId,
    ];
    for (const c of cookies) headers.push('set-cookie', c);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  return { sendJson, notModified, image };
}
