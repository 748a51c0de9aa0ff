import type { ScreenPlace } from '@pagecast/contracts';
import { FieldError, Label, Spinner } from '@pagecast/ui';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import './alerts.css';

/** JMA's code tables (packages/alerts, the tables alone), loaded when a picker first shows: no other page carries them. */
type Tables = Pick<
  typeof import('@pagecast/alerts/places'),
  'prefectures' | 'citiesOf' | 'cityByCode' | 'tsunamiRegion'
>;
let loading: Promise<Tables> | undefined;
const loadTables = () => {
  loading ??= import('@pagecast/alerts/places');
  return loading;
};

function useTables(): Tables | null {
  const [tables, setTables] = useState<Tables | null>(null);
  useEffect(() => {
    let live = true;
    loadTables().then((t) => {
      if (live) setTables(t);
    });
    return () => {
      live = false;
    };
  }, []);
  return tables;
}

/**
 * Where a screen (or a group) is, for disaster alerts: its prefecture, then its municipality, by name in the reader's
 * language (Japanese names; romaji otherwise), from JMA's own code tables; and whether it is near the coast, then which
 * tsunami forecast region (the municipality's own, chosen at once when it has one).
 */
export function PlacePicker({
  value,
  onChange,
  noneLabel,
  error,
}: {
  value: ScreenPlace;
  onChange: (place: ScreenPlace) => void;
  /** what "no place" means here (a screen: its group's; a group: no alerts) */
  noneLabel: string;
  error?: string | null;
}) {
  const { t, i18n } = useTranslation();
  const tables = useTables();
  const id = useId();
  const ja = i18n.language.startsWith('ja');
  const lang = (['ja', 'en', 'fr', 'it'] as const).find((l) => i18n.language.startsWith(l)) ?? 'en';
  const [pref, setPref] = useState<string>(value ? value.cityCode.slice(0, 2) : '');
  if (!tables) return <Spinner />;
  const cities = pref ? tables.citiesOf(pref) : [];
  const city = value ? tables.cityByCode(value.cityCode) : undefined;
  const regions = (city?.tsunamiRegions ?? []).flatMap((code) => {
    const r = tables.tsunamiRegion(code);
    return r ? [r] : [];
  });
  const chooseCity = (code: string) => {
    if (!code) return onChange(null);
    const next = tables.cityByCode(code);
    // near the coast stays so, on the new city's coast when it has one
    const coast = value?.tsunamiRegion ? (next?.tsunamiRegions[0] ?? null) : null;
    onChange({ cityCode: code, tsunamiRegion: coast });
  };
  return (
    <fieldset className="pc-stack" data-testid="place-picker">
      <legend>{t('alerts.place.legend')}</legend>
      <p className="pc-muted pl-small">{t('alerts.place.help')}</p>
      <div className="pc-field">
        <Label htmlFor={`${id}-pref`}>{t('alerts.place.prefecture')}</Label>
        <select
          id={`${id}-pref`}
          className="pc-select"
          value={pref}
          data-testid="place-prefecture"
          onChange={(e) => {
            setPref(e.target.value);
            onChange(null);
          }}
        >
          <option value="">{noneLabel}</option>
          {tables.prefectures().map((p) => (
            <option key={p.code} value={p.code}>
              {p.names[lang]}
            </option>
          ))}
        </select>
      </div>
      {pref ? (
        <div className="pc-field">
          <Label htmlFor={`${id}-city`}>{t('alerts.place.city')}</Label>
          <select
            id={`${id}-city`}
            className="pc-select"
            value={value?.cityCode ?? ''}
            data-testid="place-city"
            onChange={(e) => chooseCity(e.target.value)}
          >
            <option value="">{t('alerts.place.chooseCity')}</option>
            {cities.map((c) => (
              <option key={c.code} value={c.code}>
                {ja ? c.name : `${c.romaji} (${c.name})`}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {value && regions.length > 0 ? (
        <label className="pla-check">
          <input
            type="checkbox"
            checked={value.tsunamiRegion !== null}
            data-testid="place-coast"
            onChange={(e) =>
              onChange({ ...value, tsunamiRegion: e.target.checked ? (regions[0]?.code ?? null) : null })
            }
          />
          <span>{t('alerts.place.coast')}</span>
        </label>
      ) : null}
      {value?.tsunamiRegion && regions.length > 1 ? (
        <div className="pc-field">
          <Label htmlFor={`${id}-region`}>{t('alerts.place.region')}</Label>
          <select
            id={`${id}-region`}
            className="pc-select"
            value={value.tsunamiRegion}
            data-testid="place-region"
            onChange={(e) => onChange({ ...value, tsunamiRegion: e.target.value })}
          >
            {regions.map((r) => (
              <option key={r.code} value={r.code}>
                {ja ? r.name : r.romaji}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <FieldError>{error ?? null}</FieldError>
    </fieldset>
  );
}
