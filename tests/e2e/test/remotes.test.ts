import { afterEach, describe, expect, it } from 'vitest';
import { manifestOf, openBrowser, type Session, watchAppearance } from './browser';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const returnPage = (s: Session) => s.page.evaluate(() => sessionStorage.getItem('pagecast.returnPage'));

describe('remotes composed at run time', () => {
  for (const [path, short, name] of [
    ['/files', 'files', 'mf_files'],
    ['/marketplace', 'marketplace', 'mf_marketplace'],
  ] as const) {
    it(`${path} loads ${name}, which sends a visitor to /login with a toast after 500 ms`, async () => {
      session = await openBrowser();
      const { page, requests } = session;
      const manifest = page.waitForRequest((r) => r.url().endsWith(manifestOf(short)));
      const appeared = await watchAppearance(page, `remote-${name}`);
      await page.goto(path);
      await manifest;
      await appeared();
      const toast = page.getByTestId('toast');
      await toast.waitFor();
      expect(await toast.textContent()).toContain('ログインが必要です');
      await page.waitForURL('**/login', { timeout: 5000 });
      expect(await returnPage(session)).toBe(path);
      await page.getByTestId('login-page').waitFor();
      expect(requests.some((u) => u.endsWith('/remotes.json'))).toBe(true);
    });
  }

  it('/signage/:fileId loads mf_player without a login screen in the way', async () => {
    session = await openBrowser();
    const { page } = session;
    const manifest = page.waitForRequest((r) => r.url().endsWith(manifestOf('player')));
    await page.goto('/signage/0123456789abcdef01234567');
    await manifest;
    await page.getByTestId('remote-mf_player').waitFor({ state: 'attached' });
  });

  it('a remote that is down shows a fallback with Retry in its area; the rest keeps working', async () => {
    session = await openBrowser();
    const { page } = session;
    let failFiles = true;
    await page.route(`**${manifestOf('files')}`, (route) =>
      failFiles ? route.abort('connectionrefused') : route.continue(),
    );

    await page.goto('/files');
    const fallback = page.getByTestId('remote-fallback-mf_files');
    await fallback.waitFor();
    expect(await fallback.textContent()).toContain('この領域を読み込めませんでした');
    expect(await page.getByTestId('brand').isVisible()).toBe(true); // the host's frame is still there
    expect(page.url()).toMatch(/\/files$/); // and it did not redirect anywhere

    // another remote still loads, in the same page (client-side navigation)
    await page.getByTestId('brand').click();
    await page.getByTestId('landing-page').waitFor();
    await page.evaluate(() => {
      history.pushState({}, '', '/playbook');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    const player = page.getByTestId('remote-mf_player');
    await player.waitFor();
    await page.getByText('ログインが必要です').first().waitFor();

    // back to /files: still down; Retry once it is back up loads it
    await page.goBack();
    await page.goBack();
    await fallback.waitFor();
    failFiles = false;
    const appeared = await watchAppearance(page, 'remote-mf_files');
    const logs: string[] = [];
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
    await page.getByTestId('remote-retry').click();
    await page.waitForURL('**/login', { timeout: 30_000 }).catch((error: unknown) => {
      throw new Error(`Retry did not load mf_files; the page said:\n${logs.join('\n')}`, { cause: error });
    });
    await appeared(1000); // mf_files's area was there before it sent the visitor on
    expect(await returnPage(session)).toBe('/files'); // set by mf_files's own guard, so it is mf_files that ran
  });
});
