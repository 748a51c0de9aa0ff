// @vitest-environment jsdom
// File management's "Purchased" tab in jsdom with the real i18n catalogues, query client and router (bought
// content was in neither File management nor the dashboard, and its licence end was shown nowhere). Only the network
// is an in-test server (fetch) answering the member, their uploads and GET /api/files/accessible.
import type { AccessibleFile, FileSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { useLocation } from '@pagecast/router';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { filesPageHost, json, settle } from './files-page-host';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function file(id: string, over: Partial<FileSummary> = {}): FileSummary {
  return {
    id,
    userId: 'me',
    title: `own ${id}`,
    filename: `${id}.pdf`,
    kind: 'pdf',
    pageCount: 3,
    pagesReady: 3,
    displayDuration: 30,
    displayMode: 'fit-width',
    tags: [],
    isPublished: false,
    publishPrice: null,
    status: 'private',
    statusReason: null,
    thumbnailUrl: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}

const bought = (id: string, title: string, endsInMs: number, pageCount = 4): AccessibleFile => ({
  ...file(id, { userId: 'seller', title, pageCount, pagesReady: pageCount, isPublished: true, publishPrice: 3000 }),
  access: 'purchased',
  licenceExpiresAt: new Date(Date.now() + endsInMs).toISOString(),
  copyright: { authorName: 'Jean Dupont', companyName: 'Atelier Nord', copyrightText: '© 2026 Atelier Nord' },
});

let own: FileSummary[];
let accessible: AccessibleFile[];
let paths: string[];

let i18n: Awaited<ReturnType<typeof initI18n>>;
beforeAll(async () => {
  i18n = await initI18n({ lng: 'en' });
});

const page = filesPageHost((path) => {
  paths.push(path);
  if (path === '/api/auth/user') return json({ id: 'me', email: 'me@example.test', membershipTier: 'standard' });
  if (path === '/api/files') return json(own);
  if (path === '/api/files/accessible') return json(accessible);
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

beforeEach(async () => {
  await i18n.changeLanguage('en');
  paths = [];
  own = [file('o1'), file('o2')];
  accessible = [
    ...own.map((f) => ({ ...f, access: 'owner' as const, licenceExpiresAt: null })),
    bought('b-late', 'Spring catalogue', 20 * DAY),
    bought('b-soon', 'Summer sale', 2 * DAY - HOUR, 1),
    bought('b-last', 'Last day', 5 * HOUR),
  ];
});

let location = '';
function Where() {
  const here = useLocation();
  location = `${here.pathname}${here.search}`;
  return null;
}

const render = (url: string) => page.render(url, <Where />);

const byTestId = (id: string, within: ParentNode = document) =>
  within.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const cards = () => [...document.querySelectorAll<HTMLElement>('[data-testid="purchased-card"]')];
const card = (id: string) =>
  document.querySelector<HTMLElement>(`[data-testid="purchased-card"][data-file-id="${id}"]`);
async function click(el: HTMLElement | null) {
  expect(el).not.toBeNull();
  await act(async () => el?.click());
  await settle();
}

describe('File management: purchased content', () => {
  it('keeps bought files apart from uploads, in their own tab with counts', async () => {
    await render('/files');
    expect(byTestId('files-tab-uploaded')?.getAttribute('aria-selected')).toBe('true');
    expect(byTestId('files-tab-uploaded-count')?.textContent).toBe('2');
    expect(byTestId('files-tab-purchased-count')?.textContent).toBe('3');
    // the uploads tab shows only the member's own files
    const ownCards = [...document.querySelectorAll<HTMLElement>('[data-testid="file-card"]')];
    expect(ownCards.map((c) => c.dataset.fileId)).toEqual(['o1', 'o2']);
    expect(cards()).toHaveLength(0);

    await click(byTestId('files-tab-purchased'));
    expect(location).toBe('/files?view=purchased');
    expect(byTestId('files-tab-purchased')?.getAttribute('aria-selected')).toBe('true');
    expect(document.querySelectorAll('[data-testid="file-card"]')).toHaveLength(0);
    // the licence ending first comes first; own files are not among them
    expect(cards().map((c) => c.dataset.fileId)).toEqual(['b-last', 'b-soon', 'b-late']);
  });

  it('shows each licence’s end date and days left (plural), flags the ones ending within 3 days', async () => {
    await render('/files?view=purchased');
    const late = accessible.find((f) => f.id === 'b-late');
    expect(byTestId('purchased-ends', card('b-late') ?? document)?.textContent).toBe(
      new Date(late?.licenceExpiresAt ?? '').toLocaleDateString('en'),
    );
    expect(byTestId('purchased-days-left', card('b-late') ?? document)?.textContent).toBe('20 days left');
    expect(byTestId('purchased-days-left', card('b-soon') ?? document)?.textContent).toBe('2 days left');
    expect(byTestId('purchased-days-left', card('b-last') ?? document)?.textContent).toBe('1 day left');
    expect(cards().map((c) => [c.dataset.fileId, c.dataset.endingSoon])).toEqual([
      ['b-last', 'true'],
      ['b-soon', 'true'],
      ['b-late', 'false'],
    ]);
    expect(byTestId('purchased-ending-soon', card('b-soon') ?? document)?.textContent).toBe('Ends soon');
    expect(byTestId('purchased-ending-soon', card('b-late') ?? document)).toBeNull();
    expect(card('b-soon')?.textContent).toContain('1 p.');
    // whose each bought file is, as the listing said
    expect(byTestId('copyright-author', card('b-late') ?? document)?.textContent).toBe('By Jean Dupont (Atelier Nord)');

    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    expect(byTestId('purchased-days-left', card('b-late') ?? document)?.textContent).toBe('20 jours restants');
    expect(byTestId('purchased-days-left', card('b-last') ?? document)?.textContent).toBe('1 jour restant');
    await act(async () => {
      await i18n.changeLanguage('ja');
    });
    expect(byTestId('purchased-days-left', card('b-late') ?? document)?.textContent).toBe('残り 20 日');
  });

  it('plays on the route own files use and adds to a playlist through the playlists page', async () => {
    await render('/files?view=purchased');
    const play = byTestId('purchased-play', card('b-late') ?? document) as HTMLAnchorElement;
    expect(play.getAttribute('href')).toBe('/signage/b-late?autoplay=true');
    expect(play.target).toBe('_blank');
    expect(play.getAttribute('aria-label')).toBe('Play “Spring catalogue”');
    await click(byTestId('purchased-add-to-playlist', card('b-late') ?? document));
    expect(location).toBe('/playback');
  });

  it('with nothing bought, says so and points to the marketplace', async () => {
    accessible = accessible.filter((f) => f.access === 'owner');
    await render('/files?view=purchased');
    expect(byTestId('purchased-empty')?.textContent).toContain('No purchased content');
    expect(byTestId('files-tab-purchased-count')?.textContent).toBe('0');
    await click(byTestId('purchased-empty')?.querySelector('a') ?? null);
    expect(location).toBe('/marketplace');
  });
});
