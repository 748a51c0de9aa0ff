import type { DayPart, Screen } from '@pagecast/contracts';
import { Button, describeError, FieldError, Input, Label, toast } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { playlistsQuery } from '../../../lib/playlists';
import { accessibleFilesQuery } from '../../../lib/accessible-files';
import { useUpdateScreen } from '../api/update-screen';
import { type AssignmentDraft, assignmentOf, draftOf, WEEKDAYS } from '../model/schedule-form';

/** What one screen plays: nothing, a playlist, one file, or a weekly schedule of day parts. */
export function AssignmentEditor({ screen }: { screen: Screen }) {
  const { t } = useTranslation();
  const playlists = useQuery(playlistsQuery);
  const files = useQuery(accessibleFilesQuery);
  const update = useUpdateScreen();
  const [draft, setDraft] = useState<AssignmentDraft>(() => draftOf(screen.assignment));
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<AssignmentDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setPart = (i: number, patch: Partial<DayPart>) =>
    set({ parts: draft.parts.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
  const playlistSelect = (id: string, value: string, onChange: (v: string) => void, allowNone = false) => (
    <select id={id} className="pc-input" value={value} onChange={(e) => onChange(e.target.value)}>
      {allowNone || !value ? <option value="">{t('screens.nothing')}</option> : null}
      {(playlists.data ?? []).map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </select>
  );
  const save = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    update.mutate(
      { id: screen.id, body: { assignment: assignmentOf(draft) } },
      {
        onSuccess: () => toast({ title: t('screens.saved') }),
        onError: (err) => setError(describeError(err, t, t('screens.saveFailed'))),
      },
    );
  };
  const p = `assign-${screen.id}`;
  return (
    <form className="pc-stack" onSubmit={save} aria-label={t('screens.plays')}>
      <Label htmlFor={`${p}-kind`}>{t('screens.plays')}</Label>
      <select
        id={`${p}-kind`}
        className="pc-input"
        value={draft.kind}
        onChange={(e) => set({ kind: e.target.value as AssignmentDraft['kind'] })}
      >
        {(['none', 'playlist', 'file', 'schedule'] as const).map((k) => (
          <option key={k} value={k}>
            {t(`screens.kind.${k}`)}
          </option>
        ))}
      </select>
      {draft.kind === 'playlist' ? (
        <>
          <Label htmlFor={`${p}-playlist`}>{t('screens.playlist')}</Label>
          {playlistSelect(`${p}-playlist`, draft.playlistId, (v) => set({ playlistId: v }))}
        </>
      ) : null}
      {draft.kind === 'file' ? (
        <>
          <Label htmlFor={`${p}-file`}>{t('screens.file')}</Label>
          <select
            id={`${p}-file`}
            className="pc-input"
            value={draft.fileId}
            onChange={(e) => set({ fileId: e.target.value })}
          >
            {!draft.fileId ? <option value="">{t('screens.nothing')}</option> : null}
            {(files.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.title}
              </option>
            ))}
          </select>
        </>
      ) : null}
      {draft.kind === 'schedule' ? (
        <fieldset className="pc-stack ps-parts">
          <legend>{t('screens.dayParts')}</legend>
          {draft.parts.map((part, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id; their order is their identity here
            <div key={i} className="pc-row ps-part" data-testid="day-part">
              {WEEKDAYS.map((d) => (
                <label key={d}>
                  <input
                    type="checkbox"
                    checked={part.days.includes(d)}
                    onChange={(e) =>
                      setPart(i, {
                        days: e.target.checked ? [...part.days, d].sort() : part.days.filter((x) => x !== d),
                      })
                    }
                  />
                  {t(`screens.weekday.${d}`)}
                </label>
              ))}
              <Label htmlFor={`${p}-start-${i}`}>{t('screens.start')}</Label>
              <Input
                id={`${p}-start-${i}`}
                type="time"
                value={part.start}
                onChange={(e) => setPart(i, { start: e.target.value })}
              />
              <Label htmlFor={`${p}-end-${i}`}>{t('screens.end')}</Label>
              <Input
                id={`${p}-end-${i}`}
                type="time"
                value={part.end}
                onChange={(e) => setPart(i, { end: e.target.value })}
              />
              <Label htmlFor={`${p}-pl-${i}`}>{t('screens.playlist')}</Label>
              {playlistSelect(`${p}-pl-${i}`, part.playlistId, (v) => setPart(i, { playlistId: v }))}
              <Button
                type="button"
                variant="ghost"
                onClick={() => set({ parts: draft.parts.filter((_, j) => j !== i) })}
              >
                {t('screens.removePart')}
              </Button>
            </div>
          ))}
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              set({
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
          {playlistSelect(`${p}-default`, draft.defaultPlaylistId, (v) => set({ defaultPlaylistId: v }), true)}
        </fieldset>
      ) : null}
      <FieldError>{error}</FieldError>
      <Button type="submit" disabled={update.isPending}>
        {t('screens.save')}
      </Button>
    </form>
  );
}
