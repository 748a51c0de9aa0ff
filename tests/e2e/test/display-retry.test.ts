// A display never gives up, in a real browser: /screen's code requests fail (a 429, a 503, then a network cut, by
// playwright's route interception) and the display keeps asking, saying on screen what it waits for; once the network
// is back it shows a code within 30 s. An unpaired display makes no failing request (no 401 in the console).
// Screenshots of the waiting display in en, fr and ja go to .data/screenshots (docs/screenshots with
// PAGECAST_SCREENSHOTS=docs).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPlayerBrowser, type PlayerBrowser, pairingCode, until } from './player-helpers';

const screensDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  process.env.PAGECAST_SCREENSHOTS === 'docs' ? '../../../docs/screenshots' : '../../../.data/screenshots',
);

let display: PlayerBrowser;
beforeAll(async () => {
  mkdirSync(screensDir, { recursive: true });
  display = await openPlayerBrowser(null, { locale: 'en-US', serviceWorkers: 'block' });
}, 60_000);
afterAll(async () => {
  await display?.close();
});

describe('/screen never gives up', () => {
  it('its code requests failing (429, 503, a cut), it says what it waits for, and shows a code within 30 s of the network returning', async () => {
    const { page, context } = display;
    let down = true;
    let asked = 0;
    await context.route('**/api/screens/pairing', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      asked += 1;
      if (!down) return route.continue();
      if (asked === 1) return route.fulfill({ status: 429, json: { code: 'RATE_LIMITED', message: 'slow down' } });
      if (asked === 2) return route.fulfill({ status: 503, json: { code: 'SERVICE_UNAVAILABLE', message: 'later' } });
      return route.abort('internetdisconnected');
    });
    const deviceReads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/screens/device/me')) deviceReads.push(r.url());
    });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(m.text());
    });

    for (const lang of ['en', 'fr', 'ja'] as const) {
      await page.goto('/screen');
      await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lang);
      await page.reload();
      const line = page.getByTestId('display-waiting');
      await line.waitFor({ timeout: 20_000 });
      expect(await line.getAttribute('data-waiting')).toBe('pairing-code');
      expect(await page.getByTestId('pairing-code').textContent()).toBe('······');
      await page.screenshot({ path: path.join(screensDir, `display-waiting-${lang}-after.png`) });
    }
    expect(await page.getByTestId('display-waiting').textContent()).toMatch(/秒後にもう一度試します。$/);

    // 20 s more down: it keeps asking
    const before = asked;
    await new Promise((r) => setTimeout(r, 20_000));
    expect(asked - before).toBeGreaterThanOrEqual(3);

    down = false;
    const back = Date.now();
    await until(
      'a pairing code after the network came back',
      async () => {
        const code = (await page.getByTestId('pairing-code').textContent()) ?? '';
        return /^[A-Z2-9]{6}$/.test(code);
      },
      30_000,
    );
    console.log(`[display-retry] a code ${Date.now() - back} ms after the network came back`);
    expect(await page.getByTestId('display-waiting').count()).toBe(0);
    expect((await pairingCode(page)).length).toBe(6);

    // unpaired: nothing asked for a device's screen, so no 401 in the console
    expect(deviceReads).toEqual([]);
    expect(consoleErrors.filter((t) => /401|Unauthorized|Stripe/i.test(t))).toEqual([]);
  }, 180_000);
});
