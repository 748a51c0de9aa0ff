// Whose address the per-address sign-in limit counts: the one the gateway signs, never an X-Forwarded-For. A caller
// that writes a new X-Forwarded-For (or signs an address without the gateway's key) on every guess is still counted
// under its own connection's address. A harness of its own: the loopback address it fills is this file's alone.
import { CLIENT_ADDRESS_HEADER } from '@pagecast/contracts';
import { signClientAddressHeader } from '@pagecast/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, from, type Harness, startHarness, uniqueEmail, verifiedMember } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_client_address', { LOGIN_FAILURES_PER_ADDRESS: '5' });
});
afterAll(async () => {
  await h?.close();
});

const guess = (headers: Record<string, string>) =>
  call(h, 'POST', '/api/auth/local-login', { body: { email: uniqueEmail('nobody'), password: 'a guess' }, headers });

describe('the per-address sign-in limit', () => {
  it('counts a caller that forges X-Forwarded-For or the address header under its own address', async () => {
    const member = await verifiedMember(h, 'forged-address');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await guess({ 'x-forwarded-for': `198.51.100.${i + 1}` }));
    for (let i = 0; i < 2; i++)
      answers.push(
        await guess({
          [CLIENT_ADDRESS_HEADER]: signClientAddressHeader(`198.51.100.${i + 50}`, 'not the key of 32 chars!!!!'),
        }),
      );
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    // the connection's address has had its five: a sixth guess, with yet another forged header, is refused
    const sixth = await guess({ 'x-forwarded-for': '198.51.100.200' });
    expect(sixth.status).toBe(429);
    // and so is the member's right password from it
    const right = await call(h, 'POST', '/api/auth/local-login', {
      body: { email: member.email, password: member.password },
      headers: { 'x-forwarded-for': '203.0.113.1' },
    });
    expect(right.status).toBe(429);
    // the gateway's word for another address is another count
    const stated = await call(h, 'POST', '/api/auth/local-login', {
      body: { email: member.email, password: member.password },
      headers: from('203.0.113.1'),
    });
    expect(stated.status).toBe(200);
  });
});
