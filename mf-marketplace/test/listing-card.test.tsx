// The listing card in jsdom with the real catalogues: what a card says a document, a photo and a video hold, in
// Japanese and in French (a language with plural forms of its own).
import type { MarketplaceListing } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from '@pagecast/router';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ListingCard } from '../src/features/browse/components/listing-card';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const base: MarketplaceListing = {
  id: 'f1',
  title: '店頭映像',
  publishPrice: 3000,
  kind: 'pdf',
  videoSeconds: null,
  pageCount: 4,
  displayDuration: 30,
  updatedAt: '2026-11-01T00:00:00.000Z',
  tags: [],
  sellerId: 'seller',
  thumbnailUrl: '/api/files/f1/preview/1?size=thumb',
  previewUrl: '/api/files/f1/preview',
  purchased: false,
  isOwn: false,
  copyright: null,
};
const video = { ...base, kind: 'video', videoSeconds: 65, pageCount: 1 } as const;
const photo = { ...base, kind: 'image', pageCount: 1, displayDuration: 1 } as const;

let i18n: I18n;
let root: Root;
let host: HTMLDivElement;
beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
});
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

async function render(listing: MarketplaceListing, lng: string) {
  await act(async () => {
    await i18n.changeLanguage(lng);
  });
  await act(async () => {
    root.render(
      <MemoryRouter>
        <ListingCard listing={listing} state="available" onBuy={() => {}} onPreview={() => {}} />
      </MemoryRouter>,
    );
  });
  const props = [...host.querySelectorAll('.pm-props dt')].map((dt) => [
    dt.textContent,
    dt.nextElementSibling?.textContent,
  ]);
  return {
    props: new Map(props.map(([k, v]) => [k ?? '', v ?? ''])),
    kind: host.querySelector('[data-testid="market-kind"]')?.textContent,
    preview: host.querySelector('[data-testid="market-preview-open"]')?.getAttribute('aria-label'),
  };
}

describe('the listing card in Japanese', () => {
  it('shows a video’s badge and length (m:ss), never pages or seconds per page', async () => {
    const card = await render(video, 'ja');
    expect(card.kind).toBe('動画');
    expect(card.props.get('再生時間')).toBe('1:05');
    expect(card.props.has('ページ数')).toBe(false);
    expect(host.textContent).not.toContain('秒/ページ');
    expect(host.querySelector('time')?.getAttribute('datetime')).toBe('PT65S');
    // its preview is a sample clip, not pages
    expect(card.preview).toContain('サンプル動画');
    expect(card.preview).not.toContain('全ページ');
  });

  it('shows a photo as one photo shown for its seconds', async () => {
    const card = await render({ ...photo, displayDuration: 10 }, 'ja');
    expect(card.kind).toBe('写真');
    expect(card.props.get('表示時間')).toBe('10 秒');
    expect(card.props.has('ページ数')).toBe(false);
  });

  it('keeps a document’s pages and seconds per page, with no kind badge', async () => {
    const card = await render(base, 'ja');
    expect(card.kind).toBeUndefined();
    expect(card.props.get('ページ数')).toBe('4 ページ');
    expect(card.props.get('表示時間')).toBe('30 秒/ページ');
    expect(card.preview).toContain('全ページ');
  });
});

describe('the listing card in French', () => {
  it('shows a video’s badge and length from an hour as h:mm:ss', async () => {
    const card = await render({ ...video, videoSeconds: 3_725 }, 'fr');
    expect(card.kind).toBe('Vidéo');
    expect(card.props.get('Durée')).toBe('1:02:05');
    expect(card.props.has('Pages')).toBe(false);
    expect(host.textContent).not.toContain('par page');
  });

  it('says a photo’s seconds in the singular and the plural', async () => {
    expect((await render(photo, 'fr')).props.get('Durée d’affichage')).toBe('1 seconde');
    const card = await render({ ...photo, displayDuration: 10 }, 'fr');
    expect(card.kind).toBe('Photo');
    expect(card.props.get('Durée d’affichage')).toBe('10 secondes');
    expect(card.props.has('Pages')).toBe(false);
  });
});
