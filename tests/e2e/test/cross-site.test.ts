// A page of another site cannot sign a member out: in Chromium, a member signed in to the app
// follows a link to /api/logout on a page served from another site (another host name and port); the browser sends
// the session cookie with that top-level navigation (SameSite=Lax), and the gateway sends it to / without ending the
// session. Logging out from the app's own menu is account-journey.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedMember } from './account';
import { logIn } from './account-flows';
import { baseUrl, openBrowser, type Session } from './browser';

let browser: Session | undefined;
let evil: http.Server | undefined;
let evilUrl = '';

beforeAll(async () => {
  // the same machine under the other loopback name: another site for the browser
  const app = new URL(baseUrl());
  const otherHost = app.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  evil = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>elsewhere</title><a id="out" href="${app.origin}/api/logout">win a prize</a>`);
  });
  await new Promise<void>((resolve) => evil?.listen(0, otherHost, resolve));
  evilUrl = `http://${otherHost}:${(evil.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (evil ? evil.close(resolve) : resolve(undefined)));
});

const signedIn = async (session: Session) =>
  session.page.evaluate(async () => (await fetch('/api/auth/user', { credentials: 'include' })).status);

describe('logout from another site', () => {
  it("a link on another site's page lands on the app's home page, still signed in", async () => {
    const member = await createVerifiedMember();
    browser = await openBrowser();
    const { page } = browser;
    await page.goto('/login');
    await logIn(page, member.email, member.password);
    await page.waitForURL((url) => url.pathname !== '/login');
    expect(await signedIn(browser)).toBe(200);

    await page.goto(evilUrl);
    const navigation = page.waitForRequest((r) => r.url() === `${baseUrl()}/api/logout` && r.isNavigationRequest());
    await page.locator('#out').click();
    const request = await navigation;
    const headers = await request.allHeaders();
    expect(headers['sec-fetch-site']).toBe('cross-site');
    expect(headers.cookie ?? '').toContain('pc_session=');
    await page.waitForURL((url) => url.origin === new URL(baseUrl()).origin && url.pathname === '/');
    expect(await signedIn(browser)).toBe(200);
    // and the app shows the member's dashboard, not the visitors' landing page
    await page.getByTestId('user-menu').waitFor();
  });
});
