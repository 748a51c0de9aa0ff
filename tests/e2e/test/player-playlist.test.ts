// Playlists on real converted PDFs: the playlist screen, a playlist of two files chaining and wrapping, edits and a
// deleted file reaching an open player without a reload, a network cut played through from the service worker's
// cache, and the edit-to-screen latency.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { measureEditLatency } from '../../../mf-player/bench/edit-latency.bench.mjs';
import {
  type Api,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  playerState,
  recordPlayback,
  signedInMember,
  type UploadedFile,
  uploadPdf,
  waitForSteps,
} from './player-helpers';

let api: Api;
let three: UploadedFile; // vertical.pdf, 3 pages, 1 s each
let one: UploadedFile; // noembed-sjis.pdf, 1 page, 1 s
let session: PlayerBrowser | undefined;

beforeAll(async () => {
  api = await signedInMember();
  [three, one] = await Promise.all([
    uploadPdf(api, 'vertical.pdf', 'Three pages', 1),
    uploadPdf(api, 'noembed-sjis.pdf', 'One page', 1),
  ]);
}, 180_000);

afterEach(async () => {
  await session?.close();
  session = undefined;
});

const root = '[data-player="signage"]';

describe('playlists', () => {
  it('the playlist screen creates, edits (order, save), plays in a new tab and deletes; an empty one says so', async () => {
    session = await openPlayerBrowser(api);
    const { page, context } = session;
    await page.goto('/playbook');
    // tab 'files' lists what can be played, with pages and seconds per page
    await page.getByRole('tab', { name: '利用可能なファイル' }).click();
    const files = page.getByTestId('accessible-file');
    await files.first().waitFor();
    const filesText = await page.getByTestId('accessible-files').textContent();
    expect(filesText).toContain('Three pages');
    expect(filesText).toContain('3ページ');
    expect(filesText).toContain('1秒/ページ');

    await page.getByRole('tab', { name: 'プレイリスト' }).click();
    await page.getByTestId('playlist-new').click();
    // a blank name is refused
    await page.getByTestId('playlist-create').click();
    await page.getByText('プレイリスト名を入力してください').waitFor();
    await page.getByLabel('プレイリスト名').fill('  Lobby  ');
    await page.getByTestId('playlist-create').click();
    await page.getByTestId('toast').filter({ hasText: 'プレイリストを作成しました' }).waitFor();
    const editor = page.getByTestId('playlist-editor');
    await editor.waitFor();
    expect(await page.getByTestId('playlist-save').textContent()).toBe('保存（0ファイル）');
    await editor.getByLabel('Three pages').check();
    await editor.getByLabel('One page').check();
    expect(await page.getByTestId('playlist-save').textContent()).toBe('保存（2ファイル）');
    await editor.getByRole('button', { name: '下へ: Three pages' }).click();
    const order = await page
      .getByTestId('playlist-order-item')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-file-id')));
    expect(order).toEqual([one.id, three.id]);
    await page.getByTestId('playlist-save').click();
    await page.getByTestId('toast').filter({ hasText: 'プレイリストを更新しました' }).waitFor();
    const row = page.getByTestId('playlist-row').filter({ hasText: 'Lobby' });
    await row.getByText('2ファイル').waitFor();
    const playlistId = await row.getAttribute('data-playlist-id');
    const saved = await api.json<{ fileId: string }[]>('GET', `/api/playlists/${playlistId}/items`);
    expect(saved.map((i) => i.fileId)).toEqual([one.id, three.id]);

    // play opens the player in a new tab on the first item, autoplaying
    const opened = context.waitForEvent('page');
    await row.getByRole('button', { name: '再生' }).click();
    const tab = await opened;
    await tab.waitForURL(`**/signage/${one.id}?playlist=${playlistId}&index=0&autoplay=true`);
    await tab.locator(root).waitFor();
    await tab.close();

    // an empty playlist cannot be played
    await page.getByTestId('playlist-new').click();
    await page.getByLabel('プレイリスト名').fill('Empty');
    await page.getByTestId('playlist-create').click();
    await page.getByTestId('playlist-editor').waitFor();
    await page.getByRole('button', { name: 'キャンセル' }).click();
    const empty = page.getByTestId('playlist-row').filter({ hasText: 'Empty' });
    await empty.getByRole('button', { name: '再生' }).click();
    await page.getByTestId('toast').filter({ hasText: 'プレイリストが空です' }).waitFor();

    // delete asks first
    await row.getByRole('button', { name: '削除' }).click();
    await page.getByRole('dialog').getByText('このプレイリストを削除してもよろしいですか？').waitFor();
    await page.getByTestId('playlist-delete-confirm').click();
    await page.getByTestId('toast').filter({ hasText: 'プレイリストを削除しました' }).waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('a playlist of two files chains (autoplay, index+1) and wraps to the first, without a blank frame', async () => {
    const playlistId = await createPlaylist(api, 'Chain', [three.id, one.id]);
    session = await openPlayerBrowser(api);
    const { page } = session;
    await page.goto(`/signage/${three.id}?playlist=${playlistId}&index=0&autoplay=true`);
    await page.locator(root).waitFor();
    await recordPlayback(page);
    const code = (s: { fileId: string; page: number }) =>
      `${s.fileId === three.id ? 'T' : s.fileId === one.id ? 'O' : '?'}${s.page}`;
    const { steps, blankFrames } = await waitForSteps(
      page,
      (s) => {
        const at = s.map(code).indexOf('O0');
        return at !== -1 && s.length >= at + 5;
      },
      20_000,
    );
    const seq = steps.map(code);
    // the recording may start on any page of the first file: find the first switch to the one-page file
    const start = seq.indexOf('O0');
    expect(start).toBeGreaterThan(-1);
    expect(seq.slice(start, start + 5)).toEqual(['O0', 'T0', 'T1', 'T2', 'O0']);
    expect(blankFrames).toBe(0);
    // the URL follows: the second item is index 1, then back to index 0
    expect(page.url()).toContain(`playlist=${playlistId}`);
    expect(page.url()).toContain('autoplay=true');
    await page.waitForURL(`**/signage/${one.id}?playlist=${playlistId}&index=1&autoplay=true`, { timeout: 10_000 });
  });

  it('an edit to the playlist and a deleted file reach an open player without a reload, at a page boundary', async () => {
    const doomed = await uploadPdf(api, 'noembed-sjis.pdf', 'Doomed', 1);
    const playlistId = await createPlaylist(api, 'Live', [three.id, doomed.id]);
    session = await openPlayerBrowser(api);
    const { page } = session;
    await page.goto(`/signage/${three.id}?playlist=${playlistId}&index=0&autoplay=true`);
    await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-live') === 'open', root);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-playlist-files'), root);
    expect((await playerState(page)).playlistFiles).toBe(`${three.id},${doomed.id}`);

    // an edit: the one-page file joins at the front
    await api.json('PUT', `/api/playlists/${playlistId}/items`, { fileIds: [one.id, three.id, doomed.id] });
    await page.waitForFunction(
      ({ s, files }) => document.querySelector(s)?.getAttribute('data-playlist-files') === files,
      { s: root, files: `${one.id},${three.id},${doomed.id}` },
      { timeout: 10_000 },
    );
    // a deleted file leaves the playlist on screen and is never shown afterwards
    await recordPlayback(page);
    const del = await api.call('DELETE', `/api/files/${doomed.id}`);
    expect(del.status).toBe(200);
    await page.waitForFunction(
      ({ s, files }) => document.querySelector(s)?.getAttribute('data-playlist-files') === files,
      { s: root, files: `${one.id},${three.id}` },
      { timeout: 10_000 },
    );
    const { steps } = await waitForSteps(page, (s) => s.filter((x) => x.fileId === one.id).length >= 2, 20_000);
    const afterDelete = steps.slice(2);
    expect(afterDelete.some((s) => s.fileId === doomed.id)).toBe(false);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // a single-file player whose file is deleted shows not-found at its next boundary
    const lonely = await uploadPdf(api, 'noembed-sjis.pdf', 'Lonely', 1);
    await page.goto(`/signage/${lonely.id}?autoplay=true`);
    await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-live') === 'open', root);
    await api.json('DELETE', `/api/files/${lonely.id}`);
    const card = page.getByTestId('player-error');
    await card.waitFor({ timeout: 10_000 });
    expect(await card.textContent()).toContain('ファイルが見つかりません');
  });

  it('keeps playing through a network cut from cached images, then takes live edits again', async () => {
    const playlistId = await createPlaylist(api, 'Offline', [three.id, one.id]);
    session = await openPlayerBrowser(api);
    const { page, context } = session;
    await page.goto(`/signage/${three.id}?playlist=${playlistId}&index=0&autoplay=true`);
    // the service worker controls the player and has seen a whole round
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 15_000 });
    await recordPlayback(page);
    await waitForSteps(
      page,
      (s) => s.filter((x) => x.fileId === three.id && x.page === 0).length >= 1 && s.length >= 5,
    );
    // every image of both files is in the worker's cache (3 + 1 pages)
    await page.waitForFunction(
      async () => (await (await caches.open('pagecast-media-v1')).keys()).length >= 4,
      undefined,
      { timeout: 10_000, polling: 250 },
    );

    await context.setOffline(true);
    const offlineFrom = (await playerState(page)).fileId;
    await recordPlayback(page);
    const { steps, blankFrames } = await waitForSteps(page, (s) => s.length >= 6, 20_000);
    // still advancing, across both files, every page a decoded image (no fallback card)
    expect(new Set(steps.map((s) => s.fileId))).toEqual(new Set([three.id, one.id]));
    expect(offlineFrom).not.toBe('');
    expect(blankFrames).toBe(0);
    expect(await page.getByTestId('player-image-fallback').count()).toBe(0);
    expect((await playerState(page)).imageShown).toBe(true);

    // a reload during the cut starts the player again from the worker's cache
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector<HTMLImageElement>('img[data-front="true"]')?.naturalWidth,
      undefined,
      {
        timeout: 15_000,
      },
    );
    await recordPlayback(page);
    await waitForSteps(page, (s) => s.length >= 3, 15_000);
    expect(await page.getByTestId('player-image-fallback').count()).toBe(0);

    await context.setOffline(false);
    await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-live') === 'open', root, {
      timeout: 20_000,
    });
    await api.json('PUT', `/api/playlists/${playlistId}/items`, { fileIds: [one.id, three.id] });
    await page.waitForFunction(
      ({ s, files }) => document.querySelector(s)?.getAttribute('data-playlist-files') === files,
      { s: root, files: `${one.id},${three.id}` },
      { timeout: 10_000 },
    );
  });

  it('measures edit-to-screen latency over 20 edits with 1 s pages, on a slow screen', async () => {
    const playlistId = await createPlaylist(api, 'Latency', [three.id, one.id]);
    session = await openPlayerBrowser(api);
    const { page } = session;
    // a slow screen (CPU 8x slower): the router renders the player's own move to the next item (a transition) a page
    // or more late there, and React may drop that render for a more urgent one. The player once took such renders
    // for a URL changed by hand and went back a file with the new playlist, mid-page: 2 or 3 runs in 6 (40 edits
    // each) failed that way before the fix. The figures printed are a slow screen's.
    const cdp = await session.context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    await page.goto(`/signage/${three.id}?playlist=${playlistId}&index=0&autoplay=true`);
    await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-live') === 'open', root);
    const result = await measureEditLatency({
      page,
      orders: [
        [three.id, one.id],
        [one.id, three.id],
      ],
      save: (fileIds) => api.json('PUT', `/api/playlists/${playlistId}/items`, { fileIds }),
      edits: 20,
      log: (line) => console.log(`[player latency] ${line}`),
    });
    // every edit reached the screen; an update waits at most for the end of the page on screen
    expect(result.total.n).toBe(20);
    // none applied before its save: that is the screen changing mid-page, outside a boundary
    const early = result.edits.filter((e) => e.at < e.t0);
    expect(early, JSON.stringify(early)).toEqual([]);
    expect(result.delivery.n).toBeGreaterThan(0);
  }, 120_000);
});
