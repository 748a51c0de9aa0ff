// Who the services hear is calling: the gateway replaces X-Forwarded-For (and Forwarded, and the client-address
// header) with the address it saw, or with the one a proxy it trusts stated, and signs that address for the services;
// a header the client wrote never reaches them. Services stand in as echoes reporting the headers that reached them.
import { CLIENT_ADDRESS_HEADER } from '@pagecast/contracts';
import { signClientAddressHeader, verifyClientAddressHeader } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeys, makeStaticTree, type Seen, startEchoService, startFakeAccount, startGateway } from './support';

const SECRET = testEnv().INTERNAL_SECRET;

let account: Awaited<ReturnType<typeof startFakeAccount>>;
let billing: Awaited<ReturnType<typeof startEchoService>>;
let tree: ReturnType<typeof makeStaticTree>;
const gateways: Array<Awaited<ReturnType<typeof startGateway>>> = [];

beforeAll(async () => {
  account = await startFakeAccount(await createKeys());
  billing = await startEchoService('billing');
  tree = makeStaticTree();
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.gateway.close()));
  await Promise.all([account?.close(), billing?.close()]);
  tree?.cleanup();
});

async function gatewayTrusting(trustProxy: string) {
  const gw = await startGateway({
    ACCOUNT_URL: account.url,
    BILLING_URL: billing.url,
    STATIC_DIR: tree.staticDir,
    REMOTES_DIR: tree.root,
    TRUST_PROXY: trustProxy,
  });
  gateways.push(gw);
  return gw;
}

/** Sends a public billing call (no session needed) with `headers`; what reached billing. */
async function through(url: string, headers: Record<string, string>): Promise<Seen> {
  const before = billing.seen.length;
  const res = await fetch(`${url}/api/billing/config`, { headers });
  await res.arrayBuffer();
  const seen = billing.seen[before];
  if (!seen) throw new Error(`billing saw nothing (status ${res.status})`);
  return seen;
}

const forged = {
  'x-forwarded-for': '203.0.113.9',
  forwarded: 'for=203.0.113.9;proto=https',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-port': '1',
  [CLIENT_ADDRESS_HEADER]: signClientAddressHeader('203.0.113.9', 'a secret that is not the gateway one'),
};

const statedAddress = (seen: Seen) => {
  const value = seen.headers[CLIENT_ADDRESS_HEADER];
  return verifyClientAddressHeader(typeof value === 'string' ? value : undefined, SECRET);
};

describe('the client address the services hear', () => {
  it('as the edge (no proxy trusted): the connection’s address, whatever the client wrote', async () => {
    const gw = await gatewayTrusting('false');
    const seen = await through(gw.url, forged);
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(statedAddress(seen)).toBe('127.0.0.1');
    expect(seen.headers.forwarded).toBeUndefined();
    expect(seen.headers['x-forwarded-port']).toBeUndefined();
    expect(seen.headers['x-forwarded-host']).toBe(new URL(gw.url).host);
    expect(seen.headers['x-forwarded-proto']).toBe('http');
  });

  it('behind a proxy it trusts: the address that proxy saw, never an entry the client put before it', async () => {
    const gw = await gatewayTrusting('loopback');
    // a client on a private network that wrote its own header; the proxy appended the address it saw
    const seen = await through(gw.url, { ...forged, 'x-forwarded-for': '203.0.113.9, 192.168.1.5' });
    expect(seen.headers['x-forwarded-for']).toBe('192.168.1.5');
    expect(statedAddress(seen)).toBe('192.168.1.5');
    // a proxy that replaced the header (nginx's $remote_addr): its word
    const replaced = await through(gw.url, { 'x-forwarded-for': '198.51.100.7' });
    expect(replaced.headers['x-forwarded-for']).toBe('198.51.100.7');
    expect(statedAddress(replaced)).toBe('198.51.100.7');
  });

  it('a statement is fresh: signed for this request, refused by the services a minute later', async () => {
    const gw = await gatewayTrusting('false');
    const seen = await through(gw.url, {});
    const value = seen.headers[CLIENT_ADDRESS_HEADER] as string;
    expect(verifyClientAddressHeader(value, SECRET, Date.now() + 61_000)).toBeNull();
  });
});
