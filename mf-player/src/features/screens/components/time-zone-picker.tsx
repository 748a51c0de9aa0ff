import { Input, Label } from '@pagecast/ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { filterZones, zoneOptions } from '../model/now-next';

/**
 * A time zone from the list the browser knows (with its offset now), found by typing part of its name or offset:
 * no free text, so only a zone the server also knows can be sent.
 */
export function TimeZonePicker({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (zone: string) => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const options = useMemo(() => zoneOptions(Date.now()), []);
  const shown = useMemo(() => filterZones(options, search, value), [options, search, value]);
  const matches = shown.filter((o) => o.zone !== value || search === '').length;
  // the chosen zone in sight within its list (not the page scrolled to it)
  const list = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    const el = list.current;
    if (!el || el.selectedIndex < 0 || shown.length === 0) return;
    const row = el.scrollHeight / el.options.length;
    el.scrollTop = Math.max(0, (el.selectedIndex + 0.5) * row - el.clientHeight / 2);
  }, [shown]);
  return (
    <div className="ps-zone">
      <Label htmlFor={id}>{t('screens.timeZone')}</Label>
      <Input
        id={`${id}-search`}
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={t('screens.board.zoneSearch')}
        aria-label={t('screens.board.zoneSearch')}
        aria-controls={id}
        autoComplete="off"
      />
      <select
        ref={list}
        id={id}
        className="pc-input ps-zone__list"
        size={6}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="time-zone-list"
      >
        {shown.map((o) => (
          <option key={o.zone} value={o.zone}>
            {o.label}
          </option>
        ))}
      </select>
      <p className="pc-muted pl-small" aria-live="polite">
        {search ? t('screens.board.zoneMatches', { count: matches }) : null}
      </p>
    </div>
  );
}
