// The marketplace screen in jsdom with the real i18n catalogues, query client and toasts; only the network is
// replaced by a small in-test server (fetch), since the component's behaviour is what is under test here.
import type { MarketplaceListing, MarketplacePage } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { createQueryClient, removeToast, Toaster } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from '@pagecast/router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Marketplace } from '../src/features/browse/components/marketplace-page';
import { SEARCH_DEBOUNCE_MS } from '../src/features/browse/components/search-box';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const listing = (i: number, extra: Partial<MarketplaceListing> = {}): MarketplaceListing => ({
  id: `f${i}`,
  title: `資料 ${i}`,
  publishPrice: 3000,
  kind: 'pdf',
  videoSeconds: null,
  pageCount: 4,
  displayDuration: 30,
  updatedAt: '2026-11-01T00:00:00.000Z',
  tags: ['sale'],
  sellerId: 'seller',
  thumbnailUrl: `/api/files/f${i}/preview/1?size=thumb`,
  previewUrl: `/api/files/f${i}/preview`,
  purchased: false,
  isOwn: false,
  copyright: { authorName: '山田 花子', companyName: '山田商店', copyrightText: '© 2026 山田商店' },
  ...extra,
});

interface Call {
  method: string;
  url: URL;
  body?: unknown;
}
let calls: Call[];
let user: { id: string; email: string; points: number; membershipTier: string };
let market: (url: URL) => Response;
let purchase: (id: string, body: unknown) => Response;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function page(files: MarketplaceListing[], p = 1, total = files.length): MarketplacePage {
  const totalPages = Math.ceil(total / 24);
  return { files, pagination: { page: p, limit: 24, total, totalPages, hasMore: p < totalPages } };
}

beforeAll(async () => {
  await initI18n({ lng: 'ja' });
});

let root: Root;
let host: HTMLDivElement;
beforeEach(() => {
  calls = [];
  user = { id: 'buyer', email: 'b@example.test', points: 5000, membershipTier: 'standard' };
  market = () => json(page([listing(1)]));
  purchase = () =>
    json({
      message: 'ok',
      purchaseId: 'p1',
      fileId: 'f1',
      pointsSpent: 3000,
      balance: 2000,
      expiresAt: '2026-12-01T00:00:00.000Z',
    });
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://app.test');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    if (url.pathname === '/api/auth/user') return json(user);
    if (url.pathname === '/api/marketplace') return market(url);
    const bought = url.pathname.match(/^\/api\/marketplace\/purchase\/(.+)$/);
    if (bought && method === 'POST') return purchase(decodeURIComponent(bought[1] ?? ''), body);
    const preview = url.pathname.match(/^\/api\/files\/(.+)\/preview$/);
    if (preview) {
      const id = preview[1];
      if (id === 'v1') {
        // a video on sale: its poster page and its watermarked clip
        return json({
          fileId: id,
          pageCount: 1,
          pages: [{ pageNumber: 1, url: `/api/files/${id}/preview/1?size=page`, thumbUrl: 'x' }],
          video: {
            url: `/media/video/${id}/preview`,
            posterUrl: `/api/files/${id}/preview/1?size=page`,
            durationMs: 10_000,
            width: 640,
            height: 360,
          },
        });
      }
      return json({
        fileId: id,
        pageCount: 2,
        pages: [1, 2].map((n) => ({ pageNumber: n, url: `/api/files/${id}/preview/${n}?size=page`, thumbUrl: 'x' })),
      });
    }
    return json({ code: 'NOT_FOUND', message: 'no' }, 404);
  });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function render() {
  const client = createQueryClient();
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/marketplace']}>
          <Marketplace />
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  await settle();
}

/** Lets pending fetches and renders finish. */
async function settle(times = 5) {
  for (let i = 0; i < times; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const allByTestId = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const marketCalls = () => calls.filter((c) => c.url.pathname === '/api/marketplace');
const lastSearch = () => marketCalls().at(-1)?.url.searchParams;

async function click(el: HTMLElement | null) {
  expect(el).not.toBeNull();
  await act(async () => el?.click());
  await settle();
}

async function type(el: HTMLElement | null, value: string) {
  const input = el as HTMLInputElement;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  await act(async () => {
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('marketplace screen', () => {
  it('shows 24 cards with price, title, pages, seconds per page, 30 days, date, thumbnail and page texts', async () => {
    market = (url) => {
      const p = Number(url.searchParams.get('page'));
      const count = p === 3 ? 5 : 24;
      return json(
        page(
          Array.from({ length: count }, (_, i) => listing((p - 1) * 24 + i)),
          p,
          53,
        ),
      );
    };
    await render();
    expect(lastSearch()?.get('limit')).toBe('24');
    const cards = allByTestId('market-card');
    expect(cards).toHaveLength(24);
    const first = cards[0]?.textContent ?? '';
    for (const text of ['3,000 ポイント', '資料 0', '4 ページ', '30 秒/ページ', '30日間', '購入する']) {
      expect(first).toContain(text);
    }
    expect(first).toContain(new Date('2026-11-01T00:00:00.000Z').toLocaleDateString('ja'));
    expect(cards[0]?.querySelector('img')?.getAttribute('src')).toBe('/api/files/f0/preview/1?size=thumb');
    expect(byTestId('market-page-of')?.textContent).toBe('1 / 3 ページ');
    expect(byTestId('market-shown')?.textContent).toBe('全53件中 24件を表示');
    expect((byTestId('market-prev') as HTMLButtonElement).disabled).toBe(true);

    await click(byTestId('market-next'));
    await click(byTestId('market-next'));
    expect(lastSearch()?.get('page')).toBe('3');
    expect(byTestId('market-page-of')?.textContent).toBe('3 / 3 ページ');
    expect(byTestId('market-shown')?.textContent).toBe('全53件中 53件を表示');
    expect((byTestId('market-next') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a new search goes back to page 1; tag chips add, remove and clear, all sent as repeated tags', async () => {
    // the one card names the query it answers, so the screen shows which search it is on (cached or fetched)
    const shownQuery = () => byTestId('market-card')?.dataset.title;
    market = (url) =>
      json(
        page(
          [listing(1, { title: `q=${url.searchParams.get('q') ?? ''} tags=${url.searchParams.getAll('tags')}` })],
          Number(url.searchParams.get('page')),
          60,
        ),
      );
    await render();
    await click(byTestId('market-next'));
    expect(lastSearch()?.get('page')).toBe('2');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await type(byTestId('market-search'), '会議');
    await act(async () => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    vi.useRealTimers();
    await settle();
    expect(lastSearch()?.get('q')).toBe('会議');
    expect(lastSearch()?.get('page')).toBe('1');

    await click(byTestId('market-next'));
    await type(byTestId('market-tag-input'), ' Sale ');
    await click(byTestId('market-tag-add'));
    await type(byTestId('market-tag-input'), '広告');
    await click(byTestId('market-tag-add'));
    expect(allByTestId('market-tag-chip').map((c) => c.dataset.tag)).toEqual(['sale', '広告']);
    expect(lastSearch()?.getAll('tags')).toEqual(['sale', '広告']);
    expect(lastSearch()?.get('page')).toBe('1');

    await click(byTestId('market-tag-chip')?.querySelector('button') ?? null);
    expect(lastSearch()?.getAll('tags')).toEqual(['広告']);
    expect(shownQuery()).toBe('q=会議 tags=広告');
    await click(byTestId('market-tag-clear'));
    expect(allByTestId('market-tag-chip')).toHaveLength(0);
    expect(shownQuery()).toBe('q=会議 tags=');
  });

  it('a free member sees the banner and "purchase unavailable (free member)" on every card', async () => {
    user = { ...user, membershipTier: 'free', points: 99_999 };
    await render();
    expect(byTestId('market-free-banner')?.textContent).toContain('無料会員');
    const buy = byTestId('market-buy') as HTMLButtonElement;
    expect(buy.disabled).toBe(true);
    expect(buy.textContent).toBe('購入不可（無料会員）');
  });

  it('says ポイント不足 when short, and marks own and licensed files', async () => {
    user = { ...user, points: 2999 };
    market = () => json(page([listing(1), listing(2, { isOwn: true }), listing(3, { purchased: true })]));
    await render();
    expect(byTestId('market-free-banner')).toBeNull();
    const buttons = allByTestId('market-buy') as HTMLButtonElement[];
    expect(buttons.map((b) => [b.textContent, b.disabled])).toEqual([
      ['ポイント不足', true],
      ['自分のコンテンツ', true],
    ]);
    expect(byTestId('market-own')).not.toBeNull();
    expect(byTestId('market-licensed')?.textContent).toBe('購入済み');
  });

  it('a bought file’s card plays it; points short, buying points is one click away', async () => {
    user = { ...user, points: 2999 };
    market = () => json(page([listing(1), listing(2, { isOwn: true }), listing(3, { purchased: true, title: '春' })]));
    await render();
    const card = (id: string) =>
      document.querySelector<HTMLElement>(`[data-testid="market-card"][data-file-id="${id}"]`);
    // licensed: Play on the member's play route instead of a disabled "purchased" button
    const play = card('f3')?.querySelector<HTMLAnchorElement>('[data-testid="market-play"]');
    expect(play?.textContent).toBe('再生');
    expect(play?.getAttribute('href')).toBe('/signage/f3?autoplay=true');
    expect(play?.target).toBe('_blank');
    expect(play?.getAttribute('aria-label')).toBe('「春」を再生');
    expect(card('f3')?.querySelector('[data-testid="market-buy"]')).toBeNull();
    // short of points: the disabled ポイント不足 stays, with a link that opens the shell's purchase dialog
    const buyPoints = card('f1')?.querySelector<HTMLAnchorElement>('[data-testid="market-buy-points"]');
    expect(buyPoints?.textContent).toBe('ポイントを購入');
    expect(buyPoints?.getAttribute('href')).toBe('/points?buy=1');
    // nowhere else: not on the own card, not on the bought one
    expect(allByTestId('market-buy-points')).toHaveLength(1);
    expect(allByTestId('market-play')).toHaveLength(1);
  });

  it('asks before spending, then buys, toasts コンテンツを購入しました and reads balance and listings again', async () => {
    await render();
    const before = marketCalls().length;
    await click(byTestId('market-buy'));
    expect(byTestId('market-confirm-buy-points')).toBeNull(); // the balance pays: no detour offered
    expect(calls.some((c) => c.method === 'POST')).toBe(false); // nothing spent before the confirmation
    const dialog = document.querySelector('[role="dialog"]');
    expect(dialog?.textContent).toContain('「資料 1」を購入しますか？');
    expect(byTestId('market-confirm-after')?.textContent).toBe('2,000 ポイント');
    await click(byTestId('market-confirm-buy'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url.pathname, c.body])).toEqual([
      ['/api/marketplace/purchase/f1', { expectedPrice: 3000 }],
    ]);
    expect(byTestId('toast')?.textContent).toContain('コンテンツを購入しました');
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(marketCalls().length).toBeGreaterThan(before);
    expect(calls.filter((c) => c.url.pathname === '/api/auth/user').length).toBeGreaterThan(1);
  });

  it('a refused purchase shows the spec failure toast with the reason and keeps the dialog', async () => {
    purchase = () => json({ code: 'INSUFFICIENT_POINTS', message: 'ポイントが不足しています' }, 402);
    await render();
    await click(byTestId('market-buy'));
    await click(byTestId('market-confirm-buy'));
    const toast = byTestId('toast')?.textContent ?? '';
    expect(toast).toContain('購入に失敗しました。ポイント残高を確認してください。');
    expect(toast).toContain('ポイントが不足しています');
  });

  it('when the price changed, shows the new one in the dialog, no failure toast, and buys at it when confirmed again', async () => {
    user = { ...user, points: 12_000 };
    purchase = (_id, body) =>
      (body as { expectedPrice?: number }).expectedPrice === 10000
        ? json({
            message: 'ok',
            purchaseId: 'p1',
            fileId: 'f1',
            pointsSpent: 10000,
            balance: 2000,
            expiresAt: '2026-12-01T00:00:00.000Z',
          })
        : json({ code: 'PRICE_CHANGED', message: '価格が変更されました', details: { price: 10000 } }, 409);
    // the toasts are one store for the page: an earlier test's toast would still be shown
    act(() => removeToast());
    await render();
    await click(byTestId('market-buy'));
    expect(byTestId('market-price-changed')).toBeNull();
    await click(byTestId('market-confirm-buy'));
    expect(byTestId('market-price-changed')?.textContent).toBe(
      '価格が 3,000 ポイントから 10,000 ポイントに変更されました。この価格で購入する場合は、もう一度確認してください。',
    );
    expect(byTestId('market-confirm-price')?.textContent).toBe('10,000 ポイント');
    expect(byTestId('market-confirm-after')?.textContent).toBe('2,000 ポイント');
    expect(byTestId('market-confirm-buy')?.textContent).toBe('10,000 ポイントで購入');
    expect(byTestId('toast')).toBeNull();
    expect(document.querySelector('[role="dialog"]')).not.toBeNull();

    await click(byTestId('market-confirm-buy'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { expectedPrice: 3000 },
      { expectedPrice: 10000 },
    ]);
    expect(byTestId('toast')?.textContent).toContain('コンテンツを購入しました');
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('a new price above the balance cannot be confirmed', async () => {
    purchase = () => json({ code: 'PRICE_CHANGED', message: '価格が変更されました', details: { price: 10000 } }, 409);
    await render();
    await click(byTestId('market-buy'));
    await click(byTestId('market-confirm-buy'));
    expect(byTestId('market-confirm-price')?.textContent).toBe('10,000 ポイント');
    expect(byTestId('market-confirm-after')?.textContent).toBe('ポイント不足');
    expect((byTestId('market-confirm-buy') as HTMLButtonElement).disabled).toBe(true);
    // and buying points is one click away
    expect(byTestId('market-confirm-buy-points')?.getAttribute('href')).toBe('/points?buy=1');
  });

  it('previews every page as the server-watermarked images, then buys from the preview', async () => {
    await render();
    await click(byTestId('market-preview-open'));
    await settle();
    const pages = allByTestId('market-preview-page') as HTMLImageElement[];
    expect(pages.map((p) => p.getAttribute('src'))).toEqual([
      '/api/files/f1/preview/1?size=page',
      '/api/files/f1/preview/2?size=page',
    ]);
    await click(byTestId('market-preview-buy'));
    expect(byTestId('market-confirm')).not.toBeNull();
  });

  it("plays a video's watermarked clip, muted with controls and its poster, instead of the page images", async () => {
    market = () =>
      json(
        page([
          listing(1, { id: 'v1', kind: 'video', videoSeconds: 10, pageCount: 1, previewUrl: '/api/files/v1/preview' }),
        ]),
      );
    await render();
    await click(byTestId('market-preview-open'));
    await settle();
    const video = byTestId('market-preview-video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/media/video/v1/preview');
    expect(video.getAttribute('poster')).toBe('/api/files/v1/preview/1?size=page');
    expect([video.muted, video.controls, video.autoplay]).toEqual([true, true, true]);
    expect(video.getAttribute('aria-label')).toBe('「資料 1」のプレビュー動画（透かし入り）');
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain(
      '動画の最初の10秒を、低解像度・音声なし・透かし入りで再生します。',
    );
    // the subtitle speaks of a sample clip and the full video, not of sample images and every page
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain(
      '透かし入りの短いサンプル動画です（低解像度・音声なし）。購入すると動画全体を高画質で再生できます。',
    );
    expect(document.querySelector('[role="dialog"]')?.textContent).not.toContain('サンプル画像');
    expect(allByTestId('market-preview-page')).toEqual([]);
  });

  it('tells the buyer whose a listing is (card, preview, purchase dialog); a bought one’s preview asks for no purchase', async () => {
    market = () => json(page([listing(1), listing(2, { purchased: true }), listing(3, { copyright: null })]));
    await render();
    const card = (id: string) =>
      document.querySelector<HTMLElement>(`[data-testid="market-card"][data-file-id="${id}"]`);
    expect(card('f1')?.querySelector('[data-testid="copyright-author"]')?.textContent).toBe(
      '著作者: 山田 花子 (山田商店)',
    );
    expect(card('f3')?.querySelector('[data-testid="copyright-author"]')).toBeNull();
    const details = () => byTestId('copyright-details')?.textContent;
    await click(card('f2')?.querySelector('[data-testid="market-preview-open"]') ?? null);
    await settle();
    expect(details()).toBe('著作者山田 花子会社・団体山田商店著作権表示© 2026 山田商店');
    const dialog = () => document.querySelector('[role="dialog"]')?.textContent ?? '';
    expect(dialog()).toContain('購入済みのため');
    expect(dialog()).not.toContain('購入すると全ページ');
    expect(byTestId('market-preview-buy')).toBeNull();
    await click(document.querySelector<HTMLElement>('[role="dialog"] .pc-btn--outline'));
    await click(card('f1')?.querySelector('[data-testid="market-buy"]') ?? null);
    expect(byTestId('market-confirm')?.textContent).toContain('© 2026 山田商店');
  });

  it("shows 'HTTP {status}: {text}' when the search fails, and the empty states", async () => {
    market = () => new Response('upstream down', { status: 502, statusText: 'Bad Gateway' });
    await render();
    expect(byTestId('market-error')?.textContent).toContain('HTTP 502: upstream down');

    market = () => json(page([]));
    await click(byTestId('market-error')?.querySelector('button') ?? null);
    expect(byTestId('market-empty')?.textContent).toContain('まだ公開されているコンテンツはありません。');

    await type(byTestId('market-tag-input'), 'none');
    await click(byTestId('market-tag-add'));
    expect(byTestId('market-empty')?.textContent).toContain('条件に合うコンテンツが見つかりません。');
    await click(byTestId('market-reset'));
    expect(allByTestId('market-tag-chip')).toHaveLength(0);
  });
});
