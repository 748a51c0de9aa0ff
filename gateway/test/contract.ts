// The stand-ins of these tests (support.ts, media.test.ts, screens.test.ts) answer for account, file-conversion and
// screens. Each answer goes through the contracts' schema of the route it answers (@pagecast/contracts: the route
// table's `response`, its success status, the error body and each code's status), so that a stand-in which drifts
// from what the real service answers fails the gateway's tests, not only the e2e suite.
//
// Not checked here, on purpose: the echo services (support.ts `startEchoService`, and the echo behind a stand-in's
// last route), which answer any path with what reached them: they are probes of what the gateway forwards, whose
// bodies the gateway passes through untouched and never reads; the key sets (`/.well-known/jwks.json`, RFC 7517, read
// by jose) and `/openapi.json`, which have no zod schema in the contracts.
import {
  apiRoutes,
  ErrorBody,
  errorStatus,
  isErrorCode,
  MediaAccessAnswer,
  type RouteDef,
  SessionRefreshResponse,
  VideoAccessAnswer,
} from '@pagecast/contracts';
import type express from 'express';
import { z } from 'zod';

/** The internal calls the gateway makes (the route table holds the public ones only), with their contracts. */
const internalRoutes: Record<string, Pick<RouteDef, 'response' | 'responseContentType'>> = {
  /** account's `POST /internal/sessions/refresh` (identity.ts) */
  'account.sessionRefresh': { response: SessionRefreshResponse },
  /** file-conversion's `GET /internal/media-access/<key>` (api/media-access.ts) */
  'files.mediaAccess': { response: MediaAccessAnswer },
  /** file-conversion's `GET /internal/media/<key>`: the image's bytes (api/media-access.ts) */
  'files.mediaBytes': { response: z.never(), responseContentType: 'image/webp' },
  /** file-conversion's `GET /internal/video-access/<id>[/preview]` (api/media-access.ts) */
  'files.videoAccess': { response: VideoAccessAnswer },
};

/** An answer no real service would give: the route's contract refuses it. */
export class ContractDrift extends Error {
  override name = 'ContractDrift';
}

const drifts: string[] = [];

/** The drifts answered since the last call (the setup file fails the test that saw any). */
export function takeDrifts(): string[] {
  return drifts.splice(0);
}

function drift(route: string, status: number, why: string): never {
  const message = `stand-in answer for ${route} (${status}) drifts from the contract: ${why}`;
  drifts.push(message);
  throw new ContractDrift(message);
}

/**
 * `body` as the stand-in answers it for `route` (an id of the contracts' route table, or one of `internalRoutes`)
 * with `status`, after checking it against the route's contract: a success has the route's success status and
 * parses with its response schema (bytes for an image), a refusal is an error body whose code the contracts give that
 * status. Throws ContractDrift otherwise.
 */
export function fakeAnswer<T>(route: string, status: number, body: T): T {
  const def = internalRoutes[route] ?? apiRoutes.find((r) => r.id === route);
  if (!def) return drift(route, status, 'no such route in the contracts');
  if (status >= 400) {
    const parsed = ErrorBody.safeParse(body);
    if (!parsed.success) return drift(route, status, z.prettifyError(parsed.error));
    const { code } = parsed.data;
    if (!isErrorCode(code)) return drift(route, status, `no error code ${code}`);
    if (errorStatus[code] !== status) return drift(route, status, `${code} is answered with ${errorStatus[code]}`);
    return body;
  }
  const success = ('successStatus' in def ? def.successStatus : undefined) ?? 200;
  if (status !== success) return drift(route, status, `a success is ${success}`);
  // an image: bytes, whatever the schema that describes them in the OpenAPI documents
  if (def.responseContentType) return Buffer.isBuffer(body) ? body : drift(route, status, 'bytes expected');
  const parsed = def.response.safeParse(body);
  if (!parsed.success) return drift(route, status, z.prettifyError(parsed.error));
  return body;
}

/**
 * Sends the checked answer: JSON, the route's image bytes, or for a redirect (a navigation) the Location. A drifted
 * answer is a 500 naming the drift, which the setup file also reports against the test.
 */
export function sendAnswer(
  res: express.Response,
  route: string,
  status: number,
  body: unknown,
  opts: { location?: string; headers?: Record<string, string> } = {},
): void {
  let checked: unknown;
  try {
    checked = fakeAnswer(route, status, body);
  } catch (err) {
    res.status(500).type('text/plain').send(String(err));
    return;
  }
  if (opts.headers) res.set(opts.headers);
  if (opts.location !== undefined) res.redirect(status, opts.location);
  else if (Buffer.isBuffer(checked)) res.status(status).send(checked);
  else res.status(status).json(checked);
}
