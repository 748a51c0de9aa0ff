// @vitest-environment jsdom
// Where a screen is, chosen by name from JMA's tables: prefecture, then municipality (Japanese names in Japanese,
// romaji with the name otherwise), then "near the coast", which gives the municipality's tsunami forecast region.
import type { ScreenPlace } from '@pagecast/contracts';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PlacePicker } from '../src/lib/alerts/place-picker';
import { byTestId, choose, click, render, settle, setupDom } from './dom-harness';

const dom = setupDom();
let chosen: ScreenPlace = null;

function Picker() {
  const [place, setPlace] = useState<ScreenPlace>(null);
  return (
    <PlacePicker
      value={place}
      onChange={(p) => {
        chosen = p;
        setPlace(p);
      }}
      noneLabel="Not set"
    />
  );
}

/** the tables load as a chunk of their own */
async function tablesLoaded() {
  for (let i = 0; i < 100 && !byTestId('place-prefecture'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    await settle(1);
  }
}

const options = (id: string) => [...(byTestId(id)?.querySelectorAll('option') ?? [])].map((o) => o.textContent ?? '');

describe('the place picker', () => {
  it('picks Ishinomaki on the Miyagi coast by name, in English then in Japanese', async () => {
    await render(<Picker />);
    await tablesLoaded();
    expect(options('place-prefecture')).toContain('Miyagi');
    await choose(byTestId('place-prefecture') as HTMLSelectElement, '04');
    expect(options('place-city')).toContain('Ishinomaki-shi (石巻市)');
    await choose(byTestId('place-city') as HTMLSelectElement, '0420200');
    expect(chosen).toEqual({ cityCode: '0420200', tsunamiRegion: null });
    await click(byTestId('place-coast'));
    expect(chosen).toEqual({ cityCode: '0420200', tsunamiRegion: '220' });
    await dom.i18n().changeLanguage('ja');
    await render(<Picker />);
    await tablesLoaded();
    expect(options('place-prefecture')).toContain('宮城県');
    await choose(byTestId('place-prefecture') as HTMLSelectElement, '04');
    expect(options('place-city')).toContain('石巻市');
    await dom.i18n().changeLanguage('en');
  });
});
