import type { DayPart } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { Button, Label } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { playlistsQuery } from '../../lib/playlists';
import type { AssignmentDraft } from '../../lib/schedule-form';
import { TimeField, WeekdayChecks } from './week-fields';
import './schedule.css';

type ScheduleDraft = Pick<AssignmentDraft, 'parts' | 'defaultPlaylistId'>;

/** The member's playlists as a select (the assignment editors' one list). */
export function PlaylistSelect({
  id,
  value,
  onChange,
  allowNone = false,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  allowNone?: boolean;
}) {
  const { t } = useTranslation();
  const playlists = useQuery(playlistsQuery);
  return (
    <select id={id} className="pc-input" value={value} onChange={(e) => onChange(e.target.value)}>
      {allowNone || !value ? <option value="">{t('screens.nothing')}</option> : null}
      {(playlists.data ?? []).map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </select>
  );
}

/**
 * A weekly schedule's day parts (days, start, end, playlist) and what plays the rest of the time: one editor for a
 * screen's schedule (Screens page) and a group's (fleet page). `idPrefix` keeps the labels' ids unique on the page.
 */
export function ScheduleFields({
  idPrefix: p,
  draft,
  onChange,
}: {
  idPrefix: string;
  draft: ScheduleDraft;
  onChange: (patch: Partial<ScheduleDraft>) => void;
}) {
  const { t } = useTranslation();
  const playlists = useQuery(playlistsQuery);
  const setPart = (i: number, patch: Partial<DayPart>) =>
    onChange({ parts: draft.parts.map((part, j) => (j === i ? { ...part, ...patch } : part)) });
  return (
    <fieldset className="pc-stack ps-parts">
      <legend>{t('screens.dayParts')}</legend>
      {draft.parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id; their order is their identity here
        <div key={i} className="ps-part" data-testid="day-part">
          <WeekdayChecks
            className="ps-part__days"
            days={part.days}
            onChange={(days) => setPart(i, { days: days as DayPart['days'] })}
          />
          <div className="ps-part__fields">
            <TimeField
              id={`${p}-start-${i}`}
              label={t('screens.start')}
              value={part.start}
              onChange={(start) => setPart(i, { start })}
            />
            <TimeField
              id={`${p}-end-${i}`}
              label={t('screens.end')}
              value={part.end}
              onChange={(end) => setPart(i, { end })}
            />
            <div className="pc-field ps-part__wide">
              <Label htmlFor={`${p}-pl-${i}`}>{t('screens.playlist')}</Label>
              <PlaylistSelect
                id={`${p}-pl-${i}`}
                value={part.playlistId}
                onChange={(v) => setPart(i, { playlistId: v })}
              />
            </div>
          </div>
          <div>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => onChange({ parts: draft.parts.filter((_, j) => j !== i) })}
            >
              {t('screens.removePart')}
            </Button>
          </div>
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        onClick={() =>
          onChange({
            parts: [
              ...draft.parts,
              { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', playlistId: playlists.data?.[0]?.id ?? '' },
            ],
          })
        }
      >
        {t('screens.addPart')}
      </Button>
      <Label htmlFor={`${p}-default`}>{t('screens.defaultPlaylist')}</Label>
      <PlaylistSelect
        id={`${p}-default`}
        value={draft.defaultPlaylistId}
        onChange={(v) => onChange({ defaultPlaylistId: v })}
        allowNone
      />
    </fieldset>
  );
}
