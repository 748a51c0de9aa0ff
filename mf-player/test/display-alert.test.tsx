// @vitest-environment jsdom
// A disaster alert on the display: the rule's words and the report's facts in Japanese, English, Chinese and Korean,
// in that order, Japanese as the one top heading; the time on the screen's clock; a 「訓練」 band for a drill only.
import { defaultAlertRules, type TakeoverAlert } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { AlertFileScreen, AlertScreen } from '../src/features/display/components/alert-screen';
import { alertFacts } from '../src/features/display/model/alert-words';
import { byTestId, render, setupDom } from './dom-harness';

setupDom();

const quake: TakeoverAlert = {
  kind: 'alert',
  reportId: 'jma:20240101161010:1:issued',
  eventId: '20240101161010',
  serial: 1,
  alertKind: 'earthquake',
  drill: false,
  reportedAt: '2024-01-01T07:12:00.000Z',
  headline: '強い揺れ',
  area: { code: '1720400', name: '輪島市', romaji: 'Wajima-shi' },
  intensity: '6+',
  texts: defaultAlertRules.earthquake.texts,
};

describe('an alert takeover on the display', () => {
  it('speaks ja, en, zh-Hans and ko in order, with the facts and the time on the screen’s clock', async () => {
    await render(<AlertScreen alert={quake} timeZone="Asia/Tokyo" />);
    const box = byTestId('display-alert');
    expect(box?.getAttribute('role')).toBe('alert');
    const sections = [...(box?.querySelectorAll('section') ?? [])];
    expect(sections.map((s) => s.getAttribute('lang'))).toEqual(['ja', 'en', 'zh-Hans', 'ko']);
    expect(box?.querySelectorAll('h1')).toHaveLength(1);
    expect(box?.querySelector('h1')?.textContent).toContain('地震が発生しました');
    expect(byTestId('display-alert-facts-ja')?.textContent).toBe('輪島市で震度6強 · 16:12 発表');
    expect(byTestId('display-alert-facts-en')?.textContent).toBe(
      'Seismic intensity 6 upper in Wajima-shi · Issued 16:12',
    );
    expect(byTestId('display-alert-facts-ko')?.textContent).toBe('Wajima-shi 진도 6강 · 16:12 발표');
    expect(byTestId('display-alert-drill')).toBeNull();
  });

  it('bands a drill with 「訓練」', async () => {
    await render(<AlertScreen alert={{ ...quake, drill: true }} timeZone="Asia/Tokyo" />);
    expect(byTestId('display-alert')?.dataset.drill).toBe('true');
    expect(byTestId('display-alert-drill')?.textContent).toContain('「訓練」');
  });

  it('words a tsunami and an emergency warning with their place', () => {
    const coast = {
      ...quake,
      alertKind: 'tsunami' as const,
      intensity: undefined,
      area: { code: '220', name: '宮城県', romaji: 'Miyagiken' },
    };
    expect(alertFacts({ ...coast, tsunamiGrade: 'major-warning' }, 'ja')).toBe('宮城県に大津波警報');
    expect(alertFacts({ ...coast, tsunamiGrade: 'warning' }, 'en')).toBe('Tsunami warning: Miyagiken');
    const rain = { ...quake, alertKind: 'weather' as const, intensity: undefined, warnings: ['大雨特別警報'] };
    expect(alertFacts(rain, 'ja')).toBe('輪島市に大雨特別警報');
    expect(alertFacts(rain, 'zh-Hans')).toBe('輪島市特别警报');
  });
});

describe('an alert whose rule shows a file', () => {
  it('shows the file with a band of the facts over it, ja first, the time on the screen’s clock', async () => {
    await render(
      <AlertFileScreen alert={{ ...quake, fileId: 'f-1' }} timeZone="Asia/Tokyo">
        <img alt="" data-testid="the-page" src="data:," />
      </AlertFileScreen>,
    );
    const box = byTestId('display-alert');
    expect(box?.dataset.file).toBe('f-1');
    expect(box?.querySelector('[data-testid="the-page"]')).not.toBeNull();
    const band = byTestId('display-alert-band');
    expect(band?.getAttribute('role')).toBe('alert');
    expect([...(band?.querySelectorAll('p') ?? [])].map((p) => p.getAttribute('lang'))).toEqual([
      'ja',
      'en',
      'zh-Hans',
      'ko',
    ]);
    expect(byTestId('display-alert-facts-ja')?.textContent).toBe(' 輪島市で震度6強 · 16:12 発表');
    expect(byTestId('display-alert-facts-en')?.textContent).toBe(
      'Seismic intensity 6 upper in Wajima-shi · Issued 16:12',
    );
    // the rule's words are not drawn over the member's file
    expect(band?.textContent).not.toContain('地震が発生しました');
    expect(byTestId('display-alert-drill')).toBeNull();
  });

  it('bands a drill with 「訓練」 over the file too', async () => {
    await render(
      <AlertFileScreen alert={{ ...quake, fileId: 'f-1', drill: true }} timeZone="Asia/Tokyo">
        <img alt="" src="data:," />
      </AlertFileScreen>,
    );
    expect(byTestId('display-alert-drill')?.textContent).toContain('「訓練」');
    expect(byTestId('display-alert')?.dataset.drill).toBe('true');
  });
});
