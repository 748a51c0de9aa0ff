import type { ScreenGroup, StartTakeoverRequest } from '@pagecast/contracts';
import { Button, describeError, FieldError, Input, Label, toast } from '@pagecast/ui';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useSaveTemplate } from '../api/fleet-api';
import { type TakeoverForm, takeoverParts, takeoverRequest } from '../model/fleet-model';
import { useMay } from '../../../lib/use-may';
import { useNames } from '../../../lib/use-names';
import { CheckList, SelectField } from './fields';

/** A new takeover's form as it opens, and again once one started (a second start must be typed anew). */
export const blankTakeoverForm = (): TakeoverForm => ({
  target: 'all',
  groupIds: new Set(),
  kind: 'message',
  title: '',
  body: '',
  fileId: '',
  duration: 'minutes',
  minutes: '30',
});

/** Where a takeover goes: all screens, or chosen groups. */
export function TargetPicker({
  idPrefix,
  groups,
  value,
  onChange,
}: {
  idPrefix: string;
  groups: ScreenGroup[];
  value: Pick<TakeoverForm, 'target' | 'groupIds'>;
  onChange: (v: Pick<TakeoverForm, 'target' | 'groupIds'>) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="pc-stack">
      <SelectField
        id={`${idPrefix}-target`}
        label={t('fleet.takeover.target')}
        value={value.target}
        onChange={(target) => onChange({ ...value, target: target as TakeoverForm['target'] })}
        narrow
      >
        <option value="all">{t('fleet.takeover.allScreens')}</option>
        <option value="groups" disabled={groups.length === 0}>
          {t('fleet.takeover.chosenGroups')}
        </option>
      </SelectField>
      {value.target === 'groups' ? (
        <CheckList
          legend={t('fleet.takeover.chosenGroups')}
          legendHidden
          nested
          items={groups}
          checked={value.groupIds}
          onChange={(groupIds) => onChange({ ...value, groupIds })}
        />
      ) : null}
    </div>
  );
}

/**
 * A new takeover, typed now: where, what (a message or a file), for how long; started through the caller's
 * confirmation (takeovers.compose: owner, admin), or kept as a template (takeover-templates.write: an editor too).
 * A role with neither sees no form. The caller gives it a new `key` once one started, which empties it.
 */
export function NewTakeoverForm({
  groups,
  onStart,
}: {
  groups: ScreenGroup[];
  onStart: (request: StartTakeoverRequest, what: string) => void;
}) {
  const { t } = useTranslation();
  const names = useNames();
  const mayCompose = useMay('takeovers.compose');
  const maySave = useMay('takeover-templates.write');
  const [form, setForm] = useState<TakeoverForm>(blankTakeoverForm);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (patch: Partial<TakeoverForm>) => setForm((f) => ({ ...f, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Enter in a field of a form that only keeps templates starts nothing
    if (!mayCompose) return;
    const request = takeoverRequest(form);
    if ('problem' in request) return setProblem(t(`fleet.takeover.problems.${request.problem}`));
    setProblem(null);
    onStart(request, names.content(request.content));
  };
  if (!mayCompose && !maySave) return null;
  return (
    <form
      className="pc-stack"
      onSubmit={submit}
      aria-labelledby="fleet-new-takeover-title"
      data-testid="fleet-new-takeover"
    >
      <h3 id="fleet-new-takeover-title">{t('fleet.takeover.new')}</h3>
      <TargetPicker
        idPrefix="fleet-new"
        groups={groups}
        value={form}
        onChange={(v) => set({ target: v.target, groupIds: v.groupIds })}
      />
      <SelectField
        id="fleet-kind"
        label={t('fleet.takeover.shows')}
        value={form.kind}
        onChange={(kind) => set({ kind: kind as TakeoverForm['kind'] })}
        narrow
      >
        <option value="message">{t('fleet.takeover.message')}</option>
        <option value="file">{t('fleet.takeover.file')}</option>
      </SelectField>
      {form.kind === 'message' ? (
        <MessageFields form={form} set={set} />
      ) : (
        <SelectField
          id="fleet-file"
          label={t('fleet.takeover.file')}
          value={form.fileId}
          onChange={(fileId) => set({ fileId })}
        >
          <option value="">{t('fleet.takeover.chooseFile')}</option>
          {names.files.map((f) => (
            <option key={f.id} value={f.id}>
              {f.title}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField
        id="fleet-duration"
        label={t('fleet.takeover.duration')}
        value={form.duration}
        onChange={(duration) => set({ duration: duration as TakeoverForm['duration'] })}
        narrow
      >
        <option value="minutes">{t('fleet.takeover.forSetTime')}</option>
        <option value="until-ended">{t('fleet.takeover.untilEnded')}</option>
      </SelectField>
      {form.duration === 'minutes' ? (
        <div className="pc-field pf-narrow">
          <Label htmlFor="fleet-minutes">{t('fleet.takeover.minutes')}</Label>
          <Input
            id="fleet-minutes"
            type="number"
            min={1}
            max={10080}
            value={form.minutes}
            onChange={(e) => set({ minutes: e.target.value })}
          />
        </div>
      ) : null}
      <FieldError>{problem}</FieldError>
      {mayCompose ? (
        <div className="pf-inline">
          <Button type="submit" variant="destructive" data-testid="fleet-takeover-start">
            {t('fleet.takeover.start')}
          </Button>
        </div>
      ) : null}
      {maySave ? <SaveAsTemplate form={form} onProblem={setProblem} /> : null}
    </form>
  );
}

function MessageFields({ form, set }: { form: TakeoverForm; set: (patch: Partial<TakeoverForm>) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="pc-field">
        <Label htmlFor="fleet-title">{t('fleet.takeover.messageTitle')}</Label>
        <Input id="fleet-title" value={form.title} onChange={(e) => set({ title: e.target.value })} maxLength={80} />
      </div>
      <div className="pc-field">
        <Label htmlFor="fleet-body">{t('fleet.takeover.messageBody')}</Label>
        <textarea
          id="fleet-body"
          className="pc-input pf-textarea"
          value={form.body}
          onChange={(e) => set({ body: e.target.value })}
          maxLength={500}
          rows={4}
        />
      </div>
    </>
  );
}

/** The form's takeover kept under a name, to start later in two clicks. */
function SaveAsTemplate({ form, onProblem }: { form: TakeoverForm; onProblem: (problem: string | null) => void }) {
  const { t } = useTranslation();
  const saveTemplate = useSaveTemplate();
  const [templateName, setTemplateName] = useState('');
  const save = () => {
    const parts = takeoverParts(form);
    if ('problem' in parts) return onProblem(t(`fleet.takeover.problems.${parts.problem}`));
    onProblem(null);
    saveTemplate.mutate(
      { name: templateName, ...parts },
      {
        onSuccess: () => {
          toast({ title: t('fleet.templates.saved', { name: templateName.trim() }) });
          setTemplateName('');
        },
        onError: (err) => onProblem(describeError(err, t, t('fleet.failed'))),
      },
    );
  };
  return (
    <div className="pf-inline">
      <div className="pc-field">
        <Label htmlFor="fleet-template-name">{t('fleet.templates.name')}</Label>
        <Input
          id="fleet-template-name"
          value={templateName}
          onChange={(e) => setTemplateName(e.target.value)}
          maxLength={60}
        />
      </div>
      <Button
        type="button"
        variant="outline"
        onClick={save}
        loading={saveTemplate.isPending}
        disabled={!templateName.trim()}
        data-testid="fleet-template-save"
      >
        {t('fleet.templates.save')}
      </Button>
    </div>
  );
}
