// The Points screen in jsdom with the real i18n catalogues, query client and toasts; only the network is replaced
// by an in-test server (fetch). The real payment path (localstripe, billing) is the browser test's
// (tests/e2e/test/points.test.ts).
import type { BillingConfig, MembershipStatus, PointsHistory, PointsSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PointsPage } from '../src/features/points/points-page';
import { byTestId, type Call, click, json, pageHost, settle, text } from './render-page';

let config: BillingConfig;
let summary: PointsSummary;
let history: PointsHistory;
let membership: MembershipStatus;
let answer: (call: Call) => Response | undefined;

beforeAll(async () => {
  await initI18n({ lng: 'ja' });
});

const { calls, render: renderAt } = pageHost((call) => {
  const given = answer(call);
  if (given) return given;
  if (call.path === '/api/auth/user') return json({ id: 'u1', email: 'u@example.test', points: summary.balance });
  if (call.path === '/api/billing/config') return json(config);
  if (call.path === '/api/points/summary') return json(summary);
  if (call.path === '/api/points/history') return json(history);
  if (call.path === '/api/membership/status') return json(membership);
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

beforeEach(() => {
  config = { cardPaymentsEnabled: true, publishableKey: null, stripeJsUrl: 'http://stripe.test/v3/', packages: [] };
  summary = {
    balance: 4300,
    earnedThisMonth: 2000,
    salesThisMonth: 2000,
    spentThisMonth: 3000,
    purchasedThisMonth: 5000,
    monthStart: '2026-10-31T15:00:00.000Z',
  };
  history = [
    {
      id: 'h3',
      type: 'spend',
      amount: -3000,
      reason: { kind: 'upgrade', tier: 'standard' },
      description: 'プランアップグレード（スタンダード）',
      createdAt: '2026-11-20T01:00:00.000Z',
    },
    {
      id: 'h2',
      type: 'purchase',
      amount: 5000,
      reason: { kind: 'pointsPurchase', points: 5000 },
      description: 'ポイント購入（5,000ポイント）',
      createdAt: '2026-11-19T01:00:00.000Z',
    },
    {
      id: 'h1',
      type: 'earn',
      amount: 2000,
      reason: { kind: 'sale', title: null },
      description: 'コンテンツ販売',
      createdAt: '2026-11-18T01:00:00.000Z',
    },
  ];
  membership = {
    id: 'u1',
    membershipTier: 'trial',
    points: 4300,
    pendingDowngradeTier: null,
    downgradeEffectiveMonth: null,
    trialEndsAt: '2026-12-20T00:00:00.000Z',
    renewsAt: null,
    renewalPoints: null,
    monthlyPrice: 0,
    notice: null,
    // billing's offers: 26 November 14:00 in Tokyo now, so the first renewal is 26 December
    upgradeOffers: [
      { membershipTier: 'standard', cost: 3000, renewsAt: '2026-12-26T05:00:00.000Z', renewalPoints: 3000 },
      { membershipTier: 'creator', cost: 5000, renewsAt: '2026-12-26T05:00:00.000Z', renewalPoints: 5000 },
    ],
  };
  answer = () => undefined;
});

const render = () => renderAt(<PointsPage />, '/points');

const allByTestId = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
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
    expect(allByTestId('points-history-description').map((d) => d.textContent)).toEqual([
      'プランアップグレード（スタンダード）',
      'ポイント購入（5,000ポイント）',
      'コンテンツ販売',
    ]);
    expect(byTestId('points-history-empty')).toBeNull();
    // card payments are configured: no red banner; cash-out stays disabled with its terms
    expect(byTestId('points-unavailable')).toBeNull();
    expect((byTestId('points-cash-out-button') as HTMLButtonElement).disabled).toBe(true);
    expect(text('points-cash-out')).toContain('10,000 ポイント');
    expect(text('points-cash-out')).toContain('220円');
  });

  // Billing sends each row's reason (a code and its parameters) beside the spec's Japanese description.
  const everyKind: PointsHistory = [
    ['registrationBonus', 'earn', 300, { kind: 'registrationBonus' }, '新規登録ボーナス'],
    ['migrationBonus', 'earn', 100, { kind: 'migrationBonus' }, 'アカウント移行ボーナス'],
    ['pointsPurchase', 'purchase', 10000, { kind: 'pointsPurchase', points: 10000 }, 'ポイント購入（10,000ポイント）'],
    ['pointsPurchaseOne', 'purchase', 1, { kind: 'pointsPurchase', points: 1 }, 'ポイント購入（1ポイント）'],
    ['upgrade', 'spend', -5000, { kind: 'upgrade', tier: 'creator' }, 'プランアップグレード（クリエイター）'],
    [
      'renewal',
      'spend',
      -3000,
      { kind: 'renewal', tier: 'standard', month: 202612 },
      '月額プラン（スタンダード）202612',
    ],
    ['purchase', 'spend', -3000, { kind: 'purchase', title: 'Quarterly review' }, 'Quarterly review'],
    ['purchaseUntitled', 'spend', -3000, { kind: 'purchase', title: null }, 'コンテンツ購入'],
    ['sale', 'earn', 2000, { kind: 'sale', title: 'Quarterly review' }, '販売: Quarterly review'],
    ['saleUntitled', 'earn', 2000, { kind: 'sale', title: null }, 'コンテンツ販売'],
  ].map(([id, type, amount, reason, description]) => ({
    id,
    type,
    amount,
    reason,
    description,
    createdAt: '2026-12-26T05:00:00.000Z',
  })) as PointsHistory;
  const japanese = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

  it.each([
    [
      'en',
      [
        'Registration bonus',
        'Account migration bonus',
        'Points purchase (10,000 points)',
        'Points purchase (1 point)',
        'Plan upgrade (Creator)',
        'Monthly plan (Standard), December 2026',
        'Purchase: Quarterly review',
        'Content purchase',
        'Sale: Quarterly review',
        'Content sale',
      ],
    ],
    [
      'fr',
      [
        'Bonus d’inscription',
        'Bonus de migration du compte',
        `Achat de points (${(10000).toLocaleString('fr')} points)`,
        'Achat de points (1 point)',
        'Passage à l’offre Créateur',
        'Abonnement mensuel (Standard), décembre 2026',
        'Achat\u202f: Quarterly review',
        'Achat de contenu',
        'Vente\u202f: Quarterly review',
        'Vente de contenu',
      ],
    ],
  ])('in %s the history is worded from each row’s reason, with no Japanese character', async (language, texts) => {
    history = everyKind;
    const i18n = await initI18n();
    await act(async () => {
      await i18n.changeLanguage(language);
    });
    try {
      await render();
      expect(allByTestId('points-history-description').map((d) => d.textContent)).toEqual(texts);
      expect(allByTestId('points-history-row').map((r) => r.dataset.reason)).toEqual(
        everyKind.map((r) => r.reason?.kind),
      );
      // what is read (the type icons are decorative, hidden from assistive technology)
      const card = byTestId('points-history')?.cloneNode(true) as HTMLElement;
      for (const hidden of card.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
      expect(card.textContent).toContain(texts[0]);
      expect(card.textContent).not.toMatch(japanese);
    } finally {
      await act(async () => {
        await i18n.changeLanguage('ja');
      });
    }
  });

  it('an old row whose text billing does not know is shown as stored', async () => {
    history = [
      {
        id: 'old',
        type: 'earn',
        amount: 50,
        reason: null,
        description: 'ポイント調整（サポート）',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ];
    await render();
    expect(text('points-history-description')).toBe('ポイント調整（サポート）');
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
            user: {
              ...membership,
              membershipTier: 'standard',
              points: 1300,
              renewsAt: '2026-12-26T05:00:00.000Z',
              renewalPoints: 3000,
            },
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
    // what is charged now, when the next charge falls and how much
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain(
      'スタンダードプランにすぐに切り替わります。今すぐ3,000ポイント、次回は2026/12/26に3,000ポイントが消費されます。',
    );
    await click(byTestId('points-membership-confirm'));
    expect(calls.find((c) => c.path === '/api/membership/upgrade')).toMatchObject({
      method: 'POST',
      body: { membershipTier: 'standard', expectedCost: 3000 },
    });
    expect(document.body.textContent).toContain('アップグレード完了');
    expect(document.body.textContent).toContain('3,000ポイント消費。次回は2026/12/26に3,000ポイント');
    // balances and plan are read again
    expect(calls.filter((c) => c.path === '/api/membership/status').length).toBeGreaterThan(1);
  });

  it('in English the confirmation counts in the right plural and says the next charge', async () => {
    const i18n = await initI18n();
    await act(async () => {
      await i18n.changeLanguage('en');
    });
    try {
      membership = {
        ...membership,
        upgradeOffers: [
          { membershipTier: 'standard', cost: 1, renewsAt: '2026-12-26T05:00:00.000Z', renewalPoints: 3000 },
        ],
      };
      await render();
      await click(byTestId('points-upgrade-standard'));
      expect(document.querySelector('[role="dialog"]')?.textContent).toContain(
        'You switch to Standard right away: 1 point now; next 3,000 points on 12/26/2026.',
      );
    } finally {
      await act(async () => {
        await i18n.changeLanguage('ja');
      });
    }
  });

  it('a changed cost is shown and asked again: nothing is charged until the member confirms the new one', async () => {
    let attempts = 0;
    answer = (call) => {
      if (call.path !== '/api/membership/upgrade') return undefined;
      attempts++;
      const body = call.body as { expectedCost: number };
      if (body.expectedCost !== 3500)
        return json({ code: 'PRICE_CHANGED', message: '価格が変更されました', details: { price: 3500 } }, 409);
      return json({
        message: 'ok',
        pointsConsumed: 3500,
        user: {
          ...membership,
          membershipTier: 'standard',
          points: 800,
          renewsAt: '2026-12-26T05:00:00.000Z',
          renewalPoints: 3000,
        },
      });
    };
    await render();
    await click(byTestId('points-upgrade-standard'));
    await click(byTestId('points-membership-confirm'));
    expect(attempts).toBe(1);
    // the dialog is open again with the current cost, and says why
    expect(text('points-membership-price-changed')).toContain('価格が変更されました');
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain('今すぐ3,500ポイント');
    expect(document.body.textContent).not.toContain('3,500ポイント消費');
    await click(byTestId('points-membership-confirm'));
    expect(attempts).toBe(2);
    expect(calls.filter((c) => c.path === '/api/membership/upgrade').map((c) => c.body)).toEqual([
      { membershipTier: 'standard', expectedCost: 3000 },
      { membershipTier: 'standard', expectedCost: 3500 },
    ]);
    expect(document.body.textContent).toContain('3,500ポイント消費。次回は2026/12/26に3,000ポイント');
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
      renewsAt: '2026-12-26T05:00:00.000Z',
      renewalPoints: 5000,
      monthlyPrice: 5000,
      upgradeOffers: [],
    };
    answer = (call) =>
      call.path === '/api/membership/schedule-downgrade'
        ? json({ message: 'ok', scheduledTier: 'standard', effectiveDate: '2026-12-26', effectiveMonth: 202612 })
        : undefined;
    await render();
    expect(text('points-membership-renewal')).toBe('次回更新日: 2026/12/26（5,000ポイント）');
    expect(byTestId('points-upgrade-creator')).toBeNull();
    expect(byTestId('points-downgrade-free')).not.toBeNull();
    await click(byTestId('points-downgrade-standard'));
    // the downgrade falls on the member's next renewal, not the 1st
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain(
      '2026/12/26（次回更新日）からスタンダードプランになります。',
    );
    membership = {
      ...membership,
      pendingDowngradeTier: 'standard',
      downgradeEffectiveMonth: 202612,
      renewalPoints: 3000,
    };
    await click(byTestId('points-membership-confirm'));
    expect(calls.find((c) => c.path === '/api/membership/schedule-downgrade')?.body).toEqual({
      targetTier: 'standard',
    });
    expect(document.body.textContent).toContain('ダウングレードを予約しました');
    await settle();
    expect(text('points-downgrade-pending')).toContain('ダウングレード予約中');
    expect(text('points-downgrade-pending')).toContain('2026/12/26からスタンダードプランになります');
    expect(text('points-membership-renewal')).toBe('次回更新日: 2026/12/26（3,000ポイント）');
    expect(byTestId('points-downgrade-free')).toBeNull();
    expect(byTestId('points-upgrade-creator')).toBeNull();

    answer = (call) => (call.path === '/api/membership/cancel-downgrade' ? json({ ok: true }) : undefined);
    membership = { ...membership, pendingDowngradeTier: null, downgradeEffectiveMonth: null, renewalPoints: 5000 };
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

describe('buying points where they are short', () => {
  it('/points?buy=1 opens the purchase dialog at once, and only once', async () => {
    await renderAt(<PointsPage />, '/points?buy=1');
    expect(byTestId('purchase-dialog')).not.toBeNull();
    expect(document.querySelector<HTMLInputElement>('input[name="point-package"]:checked')?.value).toBe('3000');
    await click(button('閉じる') ?? document.querySelector<HTMLElement>('.pc-dialog__close'));
    expect(byTestId('purchase-dialog')).toBeNull();
    // the parameter was dropped: nothing reopens it
    await settle();
    expect(byTestId('purchase-dialog')).toBeNull();
  });

  it('an upgrade the balance does not pay for offers the purchase dialog beside it', async () => {
    await render();
    expect((byTestId('points-upgrade-creator') as HTMLButtonElement).disabled).toBe(true);
    expect(byTestId('purchase-dialog')).toBeNull();
    await click(byTestId('points-membership-buy-points'));
    expect(byTestId('purchase-dialog')).not.toBeNull();
  });

  it('when every upgrade is paid for, no such button', async () => {
    membership = { ...membership, upgradeOffers: membership.upgradeOffers.slice(0, 1) };
    await render();
    expect(byTestId('points-upgrade-standard')).not.toBeNull();
    expect(byTestId('points-membership-buy-points')).toBeNull();
  });

  it('without card payments (red banner) it is not offered either', async () => {
    config = { ...config, cardPaymentsEnabled: false };
    await render();
    expect(byTestId('points-unavailable')).not.toBeNull();
    expect((byTestId('points-upgrade-creator') as HTMLButtonElement).disabled).toBe(true);
    expect(byTestId('points-membership-buy-points')).toBeNull();
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
