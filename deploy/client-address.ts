// What address the gateway takes for a caller under a TRUST_PROXY value: express's own req.ip (proxy-addr) over the
// gateway's parsing of the setting, for a request from `peer` carrying `xff`. The deploy tests check with it that the
// trusted hops each setup configures never let a client choose its address.
import express from 'express';
import { trustProxyValue } from '../gateway/src/security';

export function gatewayClientAddress(trustProxy: string, peer: string, xff?: string): string | undefined {
  const app = express();
  app.set('trust proxy', trustProxyValue(trustProxy));
  const socket = { remoteAddress: peer };
  const req = Object.create(app.request, {
    app: { value: app },
    headers: { value: xff === undefined ? {} : { 'x-forwarded-for': xff } },
    socket: { value: socket },
    connection: { value: socket },
  }) as express.Request;
  return req.ip;
}

/** Where a client may be: on the internet, or on a private network (a LAN, a container network) or link-local. */
export const clientPlaces = ['203.0.113.5', '192.168.1.5', '10.1.2.3', '172.18.0.9', 'fd00::5', '169.254.3.4'];
