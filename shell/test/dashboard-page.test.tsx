// The dashboard's billing figures in jsdom (real i18n, query client); the network is an in-test server (fetch).
import type { DashboardStats, MembershipStatus, PointsSummary } from '@pagecast/contracts';
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
const summary: PointsSummary = {
  balance: 1200,
  earnedThisMonth: 2000,
  spentThisMonth: 3000,
  purchasedThisMonth: 0,
  monthStart: '2026-10-31T15:00:00.000Z',
};

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  await initI18n({ lng: 'ja' });
});

let root: Root;
let host: HTMLDivElement;
beforeEach(() => {
  membership = {
    id: 'u1',
    membershipTier: 'standard',
    points: 1200,
    pendingDowngradeTier: null,
    downgradeEffectiveMonth: null,
    trialEndsAt: null,
    // 00:00 on 1 December in Tokyo
    nextRenewalAt: '2026-11-30T15:00:00.000Z',
    monthlyPrice: 3000,
    notice: null,
  };
  vi.stubGlobal('fetch', async (input: string) => {
    const path = new URL(input, 'http://app.test').pathname;
    if (path === '/api/auth/user') return json({ id: 'u1', email: 'u@example.test', firstName: '太郎' });
    if (path === '/api/dashboard/stats') return json(stats);
    if (path === '/api/membership/status') return json(membership);
    if (path === '/api/points/summary') return json(summary);
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

describe('dashboard from billing’s data', () => {
  it('shows the next renewal on the 1st (Tokyo calendar) and billing’s balance, earnings and spending', async () => {
    await render();
    expect(text('dashboard-renewal')).toBe('次回更新日: 2026/12/1');
    expect(text('dashboard-points-balance')).toBe('1,200 ポイント');
    expect(text('dashboard-points-earned')).toBe('+2,000');
    expect(text('dashboard-points-spent')).toBe('-3,000');
    expect(text('dashboard-earnings')).toContain('2,000 ポイント');
    expect(document.querySelector('[data-testid="dashboard-notice"]')).toBeNull();
  });

  it('tells a member whose renewal failed, and one whose trial ended', async () => {
    membership = {
      ...membership,
      membershipTier: 'free',
      nextRenewalAt: null,
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
      nextRenewalAt: null,
      trialEndsAt: '2026-12-20T03:00:00.000Z',
    };
    await render();
    expect(text('dashboard-renewal')).toBe('次回更新日: 2026/12/20（トライアル終了、以後は無料プラン）');
  });
});
