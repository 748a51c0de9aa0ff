import type { Screen } from '@pagecast/contracts';
import { Button, describeError, FieldError, Label, toast } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { accessibleFilesQuery } from '../../../lib/accessible-files';
import { useUpdateScreen } from '../api/update-screen';
import { PlaylistSelect, ScheduleFields } from '../../../components/schedule/schedule-fields';
import { type AssignmentDraft, assignmentOf, draftOf } from '../../../lib/schedule-form';
import { ApprovalNote, useWaiting, WaitingNotice } from '../../../components/approval/waiting';

/** What one screen plays: nothing, a playlist, one file, or a weekly schedule of day parts. */
export function AssignmentEditor({ screen }: { screen: Screen }) {
  const { t } = useTranslation();
  const files = useQuery(accessibleFilesQuery);
  const update = useUpdateScreen();
  const [draft, setDraft] = useState<AssignmentDraft>(() => draftOf(screen.assignment));
  const [error, setError] = useState<string | null>(null);
  const { waiting, report, clear } = useWaiting();
  const set = (patch: Partial<AssignmentDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    clear();
    update.mutate(
      { id: screen.id, body: { assignment: assignmentOf(draft) } },
      {
        // a change that waits for approval is not shown as made
        onSuccess: (result) => (result.waiting ? report(result.waiting) : toast({ title: t('screens.saved') })),
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
          <PlaylistSelect id={`${p}-playlist`} value={draft.playlistId} onChange={(v) => set({ playlistId: v })} />
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
      {draft.kind === 'schedule' ? <ScheduleFields idPrefix={p} draft={draft} onChange={set} /> : null}
      <FieldError>{error}</FieldError>
      <WaitingNotice proposal={waiting} />
      <ApprovalNote />
      <Button type="submit" disabled={update.isPending}>
        {t('screens.save')}
      </Button>
    </form>
  );
}
