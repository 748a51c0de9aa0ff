// The Points screen in jsdom with the real i18n catalogues, query client and toasts; only the network is replaced
// by an in-test server (fetch). The real payment path (localstripe, billing) is the browser test's
// (tests/e2e/test/points.test.ts).
import type { BillingConfig, MembershipStatus, PointsHistory, PointsSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { createQueryClient, Toaster } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from '@pagecast/router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PointsPage } from '../src/features/points/points-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Call {
  method: string;
  path: string;
  body: unknown;
}
let calls: Call[];
let config: BillingConfig;
let summary: PointsSummary;
let history: PointsHistory;
let membership: MembershipStatus;
let answer: (call: Call) => Response | undefined;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  await initI18n({ lng: 'ja' });
});

let root: Root;
let host: HTMLDivElement;
beforeEach(() => {
  calls = [];
  config = { cardPaymentsEnabled: true, publishableKey: null, stripeJsUrl: 'http://stripe.test/v3/', packages: [] };
  summary = {
    balance: 4300,
    earnedThisMonth: 2000,
    spentThisMonth: 3000,
    purchasedThisMonth: 5000,
    monthStart: '2026-10-31T15:00:00.000Z',
  };
  history = [
    {
      id: 'h3',
      type: 'spend',
      amount: -3000,
      description: 'スタンダードプランへアップグレード',
      createdAt: '2026-11-20T01:00:00.000Z',
    },
    { id: 'h2', type: 'purchase', amount: 5000, description: 'ポイント購入', createdAt: '2026-11-19T01:00:00.000Z' },
    { id: 'h1', type: 'earn', amount: 2000, description: 'コンテンツ販売', createdAt: '2026-11-18T01:00:00.000Z' },
  ];
  membership = {
    id: 'u1',
    membershipTier: 'trial',
    points: 4300,
    pendingDowngradeTier: null,
    downgradeEffectiveMonth: null,
    trialEndsAt: '2026-12-20T00:00:00.000Z',
    nextRenewalAt: null,
    monthlyPrice: 0,
    notice: null,
  };
  answer = () => undefined;
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://app.test');
    const call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const given = answer(call);
    if (given) return given;
    if (call.path === '/api/auth/user') return json({ id: 'u1', email: 'u@example.test', points: summary.balance });
    if (call.path === '/api/billing/config') return json(config);
    if (call.path === '/api/points/summary') return json(summary);
    if (call.path === '/api/points/history') return json(history);
    if (call.path === '/api/membership/status') return json(membership);
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
});

async function settle(times = 6) {
  for (let i = 0; i < times; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

async function render() {
  await act(async () => {
    root.render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/points']}>
          <PointsPage />
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  await settle();
}

const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const allByTestId = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const text = (id: string) => byTestId(id)?.textContent ?? '';
async function click(el: HTMLElement | null) {
  expect(el).not.toBeNull();
  await act(async () => el?.click());
  await settle();
}
const button = (name: string) =>
  [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === name) ?? null;

describe('points screen', () => {
  it('shows the four cards from billing’s summary and the history with a type per row, newest first', async () => {
    await render();
    expect(document.querySelector('h1')?.textContent).toBe('ポイント管理');
    expect(text('points-balance-card-value')).toBe('4,300 ポイント');
    expect(text('points-earned-card-value')).toBe('2,000 ポイント');
    expect(text('points-spent-card-value')).toBe('3,000 ポイント');
    expect(text('points-purchased-card-value')).toBe('5,000 ポイント');
    const rows = allByTestId('points-history-row');
    expect(rows.map((r) => r.dataset.type)).toEqual(['spend', 'purchase', 'earn']);
    expect(allByTestId('points-history-amount').map((a) => a.textContent)).toEqual(['-3,000', '+5,000', '+2,000']);
    expect(rows[0]?.textContent).toContain('スタンダードプランへアップグレード');
    expect(byTestId('points-history-empty')).toBeNull();
    // card payments are configured: no red banner; cash-out stays disabled with its terms
    expect(byTestId('points-unavailable')).toBeNull();
    expect((byTestId('points-cash-out-button') as HTMLButtonElement).disabled).toBe(true);
    expect(text('points-cash-out')).toContain('10,000 ポイント');
    expect(text('points-cash-out')).toContain('220円');
  });

  it('an empty history has its own state; without card payments the red banner shows', async () => {
    history = [];
    config = { ...config, cardPaymentsEnabled: false };
    await render();
    expect(text('points-history-empty')).toBe('ポイントの履歴はまだありません');
    expect(text('points-unavailable')).toContain('ポイント購入と換金は現在ご利用いただけません');
    expect((byTestId('points-buy') as HTMLButtonElement).disabled).toBe(true);
    expect((byTestId('points-cash-out-action') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a trial member can upgrade to what the balance pays for, after confirming', async () => {
    answer = (call) =>
      call.path === '/api/membership/upgrade'
        ? json({
            message: 'ok',
            pointsConsumed: 3000,
            user: { ...membership, membershipTier: 'standard', points: 1300 },
          })
        : undefined;
    await render();
    expect(text('points-membership-tier')).toBe('トライアル');
    const standard = byTestId('points-upgrade-standard') as HTMLButtonElement;
    const creator = byTestId('points-upgrade-creator') as HTMLButtonElement;
    expect(standard.disabled).toBe(false);
    expect(creator.disabled).toBe(true); // 4,300 < 5,000
    expect(byTestId('points-downgrade-free')).toBeNull();

    await click(standard);
    expect(calls.some((c) => c.path === '/api/membership/upgrade')).toBe(false);
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain('3,000ポイントが消費されます');
    await click(byTestId('points-membership-confirm'));
    expect(calls.find((c) => c.path === '/api/membership/upgrade')).toMatchObject({
      method: 'POST',
      body: { membershipTier: 'standard' },
    });
    expect(document.body.textContent).toContain('アップグレード完了');
    // balances and plan are read again
    expect(calls.filter((c) => c.path === '/api/membership/status').length).toBeGreaterThan(1);
  });

  it('a failed upgrade shows the server’s message or the spec’s fallback', async () => {
    answer = (call) =>
      call.path === '/api/membership/upgrade' ? json({ code: 'SOMETHING_NEW', message: '' }, 409) : undefined;
    await render();
    await click(byTestId('points-upgrade-standard'));
    await click(byTestId('points-membership-confirm'));
    expect(document.body.textContent).toContain('アップグレードに失敗しました。');
  });

  it('a creator schedules a downgrade; while it is pending only the cancel button shows', async () => {
    membership = {
      ...membership,
      membershipTier: 'creator',
      trialEndsAt: null,
      nextRenewalAt: '2026-11-30T15:00:00.000Z',
      monthlyPrice: 5000,
    };
    answer = (call) =>
      call.path === '/api/membership/schedule-downgrade'
        ? json({ message: 'ok', scheduledTier: 'standard', effectiveDate: '2026-12-01', effectiveMonth: 202612 })
        : undefined;
    await render();
    expect(byTestId('points-upgrade-creator')).toBeNull();
    expect(byTestId('points-downgrade-free')).not.toBeNull();
    await click(byTestId('points-downgrade-standard'));
    membership = { ...membership, pendingDowngradeTier: 'standard', downgradeEffectiveMonth: 202612 };
    await click(byTestId('points-membership-confirm'));
    expect(calls.find((c) => c.path === '/api/membership/schedule-downgrade')?.body).toEqual({
      targetTier: 'standard',
    });
    expect(document.body.textContent).toContain('ダウングレードを予約しました');
    await settle();
    expect(text('points-downgrade-pending')).toContain('ダウングレード予約中');
    expect(text('points-downgrade-pending')).toContain('スタンダードプランになります');
    expect(byTestId('points-downgrade-free')).toBeNull();
    expect(byTestId('points-upgrade-creator')).toBeNull();

    answer = (call) => (call.path === '/api/membership/cancel-downgrade' ? json({ ok: true }) : undefined);
    membership = { ...membership, pendingDowngradeTier: null, downgradeEffectiveMonth: null };
    await click(byTestId('points-cancel-downgrade'));
    expect(calls.find((c) => c.path === '/api/membership/cancel-downgrade')?.method).toBe('DELETE');
    expect(document.body.textContent).toContain('ダウングレード予約をキャンセルしました');
    await settle();
    expect(byTestId('points-downgrade-pending')).toBeNull();
    expect(byTestId('points-downgrade-free')).not.toBeNull();
  });

  it('shows the trial-ended notice', async () => {
    membership = {
      ...membership,
      membershipTier: 'free',
      trialEndsAt: '2026-11-01T00:00:00.000Z',
      notice: 'trial-ended',
    };
    await render();
    expect(text('points-notice')).toContain('トライアル期間が終了しました');
    expect(text('points-membership-renewal')).toBe('無料プランのため更新はありません');
  });
});

describe('point purchase dialog', () => {
  it('offers four packages with 3000 chosen, proceeds, goes back, and resets when closed', async () => {
    await render();
    await click(byTestId('points-buy'));
    const radios = [...document.querySelectorAll<HTMLInputElement>('input[name="point-package"]')];
    expect(radios.map((r) => r.value)).toEqual(['1000', '3000', '5000', '10000']);
    expect(radios.find((r) => r.checked)?.value).toBe('3000');
    expect(text('purchase-dialog')).toContain('有効期限はありません');
    await click(radios[3] ?? null);
    await click(byTestId('purchase-proceed'));
    // no publishable key: the spec's configuration error, and back returns to the choice
    expect(text('purchase-config-error')).toContain('設定エラー');
    expect(text('purchase-config-error')).toContain('決済機能が利用できません。管理者にお問い合わせください。');
    await click(byTestId('purchase-back'));
    expect(document.querySelector<HTMLInputElement>('input[name="point-package"]:checked')?.value).toBe('10000');
    await click(button('閉じる') ?? document.querySelector<HTMLElement>('.pc-dialog__close'));
    expect(byTestId('purchase-dialog')).toBeNull();
    await click(byTestId('points-buy'));
    expect(document.querySelector<HTMLInputElement>('input[name="point-package"]:checked')?.value).toBe('3000');
  });

  it('a card script that cannot load is the spec’s preparation failure, with a way back', async () => {
    config = { ...config, publishableKey: 'pk_test_x', stripeJsUrl: 'http://stripe.invalid/v3/' };
    await render();
    await click(byTestId('points-buy'));
    await click(byTestId('purchase-proceed'));
    const script = [...document.querySelectorAll('script')].find((el) => el.src === 'http://stripe.invalid/v3/');
    expect(script).toBeDefined();
    await act(async () => script?.dispatchEvent(new Event('error')));
    await settle();
    expect(text('purchase-load-error')).toContain('決済の準備に失敗しました');
    await click(byTestId('purchase-back'));
    expect(document.querySelectorAll('input[name="point-package"]')).toHaveLength(4);
  });
});
