import type { OpeningSpan, Screen, ScreenPlace, ScreenRotation } from '@pagecast/contracts';
import { Button, describeError, FieldError, toast } from '@pagecast/ui';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { PlacePicker } from '../../../lib/alerts/place-picker';
import { OpeningHoursEditor } from '../../../lib/health/components/opening-hours-editor';
import { RotationPicker } from '../../../lib/health/components/rotation-picker';
import { fieldErrors } from '../../../lib/health/model/health-text';
import { useUpdateScreen } from '../api/update-screen';
import { ApprovalNote, useWaiting, WaitingNotice } from '../../../components/approval/waiting';

/**
 * How a screen hangs, when it is open and where it is (disaster alerts): PUT /api/screens/:id { rotation,
 * openingHours, place }. No spans =
 * none of its own (null: its groups' hours, else always open). The server's refusals are shown by field.
 */
export function ScreenSettings({ screen }: { screen: Screen }) {
  const { t } = useTranslation();
  const update = useUpdateScreen();
  const [rotation, setRotation] = useState<ScreenRotation>(screen.rotation ?? 0);
  const [spans, setSpans] = useState<OpeningSpan[]>(screen.openingHours ?? []);
  const [place, setPlace] = useState<ScreenPlace>(screen.place ?? null);
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const { waiting, report, clear } = useWaiting();
  const save = (e: FormEvent) => {
    e.preventDefault();
    setErrors(new Map());
    setError(null);
    clear();
    update.mutate(
      {
        id: screen.id,
        body: {
          rotation,
          openingHours: spans.length ? spans : null,
          // sent only when changed: a page opened before another one set the place does not clear it
          ...(JSON.stringify(place) !== JSON.stringify(screen.place ?? null) ? { place } : {}),
        },
      },
      {
        // opening hours change what it plays: an editor's change may wait for approval, and is then not made yet
        onSuccess: (result) =>
          result.waiting ? report(result.waiting) : toast({ title: t('screens.health.settings.saved') }),
        onError: (err) => {
          const byField = fieldErrors(err, t);
          setErrors(byField);
          const shown = [...byField.keys()].some(
            (k) => k === 'rotation' || k.startsWith('openingHours') || k.startsWith('place'),
          );
          if (!shown) setError(describeError(err, t, t('screens.health.settings.failed')));
        },
      },
    );
  };
  return (
    <form
      className="pc-stack"
      onSubmit={save}
      aria-label={t('screens.health.settings.title')}
      data-testid="screen-settings"
    >
      <RotationPicker
        name={`rotation-${screen.id}`}
        value={rotation}
        onChange={setRotation}
        error={errors.get('rotation')}
      />
      <OpeningHoursEditor
        idPrefix={`hours-${screen.id}`}
        spans={spans}
        onChange={setSpans}
        noneLabel={t('screens.health.hours.noneScreen')}
        errors={errors}
      />
      <PlacePicker
        value={place}
        onChange={setPlace}
        noneLabel={t('alerts.place.noneScreen')}
        error={[...errors.entries()].find(([k]) => k.startsWith('place'))?.[1]}
      />
      <FieldError>{error}</FieldError>
      <WaitingNotice proposal={waiting} />
      <ApprovalNote />
      <Button type="submit" loading={update.isPending}>
        {t('screens.health.settings.save')}
      </Button>
    </form>
  );
}
