// The dashboard's billing figures in jsdom (real i18n, query client); the network is an in-test server (fetch).
import type { AccessibleFile, DashboardStats, MembershipStatus, PointsSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { createQueryClient } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from '@pagecast/router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DashboardPage } from '../src/features/dashboard/components/dashboard-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let membership: MembershipStatus;
const stats: DashboardStats = {
  user: { membershipTier: 'standard', points: 999 },
  fileCount: 1,
  fileLimit: 30,
  monthlyEarnings: 1,
  monthlySpent: 1,
  recentFiles: [],
};
let summary: PointsSummary;
let accessible: AccessibleFile[];

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  await initI18n({ lng: 'ja' });
});

let root: Root;
let host: HTMLDivElement;
beforeEach(() => {
  summary = {
    balance: 1200,
    earnedThisMonth: 2300, // the 300-point registration bonus and a sale's 2,000
    salesThisMonth: 2000,
    spentThisMonth: 3000,
    purchasedThisMonth: 0,
    monthStart: '2026-10-31T15:00:00.000Z',
  };
  membership = {
    id: 'u1',
    membershipTier: 'standard',
    points: 1200,
    pendingDowngradeTier: null,
    downgradeEffectiveMonth: null,
    trialEndsAt: null,
    // upgraded on 26 November at 14:00 in Tokyo: renews one calendar month later
    renewsAt: '2026-12-26T05:00:00.000Z',
    renewalPoints: 3000,
    monthlyPrice: 3000,
    notice: null,
    upgradeOffers: [
      { membershipTier: 'creator', cost: 5000, renewsAt: '2027-01-05T00:00:00.000Z', renewalPoints: 5000 },
    ],
  };
  accessible = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const path = new URL(input, 'http://app.test').pathname;
    if (path === '/api/auth/user') return json({ id: 'u1', email: 'u@example.test', firstName: '太郎' });
    if (path === '/api/dashboard/stats') return json(stats);
    if (path === '/api/membership/status') return json(membership);
    if (path === '/api/points/summary') return json(summary);
    if (path === '/api/files/accessible') return json(accessible);
    return new Response('{}', { status: 404 });
  });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
});

async function render() {
  await act(async () => {
    root.render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/']}>
          <DashboardPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  for (let i = 0; i < 6; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';

/** A file the member may play: their own (no licence) or bought, its licence ending in `endsInMs`. */
function accessibleFile(id: string, endsInMs: number | null): AccessibleFile {
  return {
    id,
    userId: endsInMs === null ? 'u1' : 'seller',
    title: id,
    filename: `${id}.pdf`,
    kind: 'pdf',
    pageCount: 2,
    pagesReady: 2,
    displayDuration: 30,
    displayMode: 'fit-width',
    tags: [],
    isPublished: false,
    publishPrice: null,
    status: 'private',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    access: endsInMs === null ? 'owner' : 'purchased',
    licenceExpiresAt: endsInMs === null ? null : new Date(Date.now() + endsInMs).toISOString(),
  };
}

describe('dashboard: bought content', () => {
  const DAY = 86_400_000;
  it('counts bought files beside the own ones and how many licences end within 3 days', async () => {
    accessible = [
      accessibleFile('own', null),
      accessibleFile('a', 20 * DAY),
      accessibleFile('b', 2 * DAY),
      accessibleFile('c', 3 * DAY - 60_000),
    ];
    await render();
    const purchased = document.querySelector<HTMLAnchorElement>('[data-testid="dashboard-purchased"]');
    expect(purchased?.textContent).toBe('購入済み 3 件');
    expect(purchased?.getAttribute('href')).toBe('/files?view=purchased');
    expect(text('dashboard-ending-soon')).toBe('3日以内に期限切れ 2 件');
    // it sits in the files card, beside the own files count
    expect(text('dashboard-file-count')).toContain('購入済み 3 件');
  });

  it('in English and French the counts take the plural of their number; nothing ends soon, no flag', async () => {
    accessible = [accessibleFile('a', 20 * DAY)];
    const i18n = await initI18n();
    await act(async () => {
      await i18n.changeLanguage('en');
    });
    try {
      await render();
      expect(text('dashboard-purchased')).toBe('1 purchased');
      expect(document.querySelector('[data-testid="dashboard-ending-soon"]')).toBeNull();
      act(() => root.unmount());
      root = createRoot(host);
      accessible = [accessibleFile('a', DAY), accessibleFile('b', 20 * DAY)];
      await act(async () => {
        await i18n.changeLanguage('fr');
      });
      await render();
      expect(text('dashboard-purchased')).toBe('2 contenus achetés');
      expect(text('dashboard-ending-soon')).toBe('1 se termine dans 3 jours ou moins');
    } finally {
      await act(async () => {
        await i18n.changeLanguage('ja');
      });
    }
  });
});

describe('dashboard from billing’s data', () => {
  it('shows billing’s stored next renewal (Tokyo calendar), balance, sales earnings and spending', async () => {
    await render();
    expect(text('dashboard-renewal')).toBe('次回更新日: 2026/12/26');
    expect(text('dashboard-points-balance')).toBe('1,200 ポイント');
    expect(text('dashboard-points-earned')).toBe('+2,300'); // every earn row, as the Points screen
    expect(text('dashboard-points-spent')).toBe('-3,000');
    expect(text('dashboard-earnings')).toContain('2,000 ポイント'); // the sale only
    expect(document.querySelector('[data-testid="dashboard-notice"]')).toBeNull();
  });

  it('a member who sold nothing reads 0 points of sales, not the registration bonus', async () => {
    summary = { ...summary, earnedThisMonth: 300, salesThisMonth: 0 };
    await render();
    expect(text('dashboard-earnings')).toContain('0 ポイント');
    expect(text('dashboard-earnings')).not.toContain('300');
    expect(text('dashboard-points-earned')).toBe('+300');
  });

  it('tells a member whose renewal failed, and one whose trial ended', async () => {
    membership = {
      ...membership,
      membershipTier: 'free',
      renewsAt: null,
      renewalPoints: null,
      monthlyPrice: 0,
      notice: 'renewal-failed',
    };
    await render();
    expect(text('dashboard-notice')).toContain('プランを更新できませんでした');
    expect(text('dashboard-renewal')).toBe('無料プランのため更新はありません');
    act(() => root.unmount());
    root = createRoot(host);
    membership = { ...membership, notice: 'trial-ended' };
    await render();
    expect(text('dashboard-notice')).toContain('トライアル期間が終了しました');
  });

  it('a trial shows the day it ends', async () => {
    membership = {
      ...membership,
      membershipTier: 'trial',
      renewsAt: null,
      renewalPoints: null,
      trialEndsAt: '2026-12-20T03:00:00.000Z',
    };
    await render();
    expect(text('dashboard-renewal')).toBe('次回更新日: 2026/12/20（トライアル終了、以後は無料プラン）');
  });
});
