// A local JWKS server standing in for the service whose keys the gateway trusts (account for sessions, screens for
// device tokens), with the private key so a bench signs its own tokens: what the gateway's benches share.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * An EdDSA key served at `<url>/.well-known/jwks.json`; `kid` and `privateKey` sign what the bench sends. `other`
 * answers any other request (the service's routes a bench stands in for); none: 404. `signDevice` makes a paired
 * display's device token (the screens service's claims) for `{ deviceId, screenId, ownerId }`.
 */
export async function jwksStandIn(other) {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const server = http.createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    } else if (other) {
      other(req, res);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    kid,
    privateKey,
    signDevice: (d) =>
      new SignJWT({ scr: d.screenId, own: d.ownerId, typ: 'device' })
        .setProtectedHeader({ alg: 'EdDSA', kid })
        .setSubject(d.deviceId)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
    close: () => new Promise((r) => server.close(r)),
  };
}
