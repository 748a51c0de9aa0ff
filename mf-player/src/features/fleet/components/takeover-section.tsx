import type { ScreenGroup, StartTakeoverRequest, Takeover, TakeoverTemplate } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  describeError,
  FieldError,
  Input,
  Label,
  toast,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import {
  takeoversQuery,
  templatesQuery,
  useDeleteTemplate,
  useEndTakeover,
  useSaveTemplate,
  useStartTakeover,
} from '../api/fleet-api';
import { type TakeoverForm, takeoverParts, takeoverRequest, targetOf } from '../model/fleet-model';
import { useNames } from '../model/use-names';
import { ConfirmDialog } from './confirm-dialog';

const formatWhen = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** Where a takeover goes: all screens, or chosen groups. */
function TargetPicker({
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
      <div className="pc-field pf-narrow">
        <Label htmlFor={`${idPrefix}-target`}>{t('fleet.takeover.target')}</Label>
        <select
          id={`${idPrefix}-target`}
          className="pc-select"
          value={value.target}
          onChange={(e) => onChange({ ...value, target: e.target.value as TakeoverForm['target'] })}
        >
          <option value="all">{t('fleet.takeover.allScreens')}</option>
          <option value="groups" disabled={groups.length === 0}>
            {t('fleet.takeover.chosenGroups')}
          </option>
        </select>
      </div>
      {value.target === 'groups' ? (
        <fieldset className="pf-checks pf-checks--nested">
          <legend className="pc-visually-hidden">{t('fleet.takeover.chosenGroups')}</legend>
          {groups.map((g) => (
            <label key={g.id} className="pf-check">
              <input
                type="checkbox"
                checked={value.groupIds.has(g.id)}
                onChange={(e) => {
                  const groupIds = new Set(value.groupIds);
                  if (e.target.checked) groupIds.add(g.id);
                  else groupIds.delete(g.id);
                  onChange({ ...value, groupIds });
                }}
              />
              {g.name}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}

/** Takeovers: start one (typed now or from a template), the running ones and their end, templates. */
export function TakeoverSection({ groups }: { groups: ScreenGroup[] }) {
  const { t, i18n } = useTranslation();
  const names = useNames();
  const running = useQuery(takeoversQuery);
  const templates = useQuery(templatesQuery);
  const start = useStartTakeover();
  const end = useEndTakeover();
  const saveTemplate = useSaveTemplate();
  const deleteTemplate = useDeleteTemplate();
  const [form, setForm] = useState<TakeoverForm>({
    target: 'all',
    groupIds: new Set(),
    kind: 'message',
    title: '',
    body: '',
    fileId: '',
    duration: 'minutes',
    minutes: '30',
  });
  const [templateName, setTemplateName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<
    | { kind: 'start'; request: StartTakeoverRequest; what: string; template?: TakeoverTemplate }
    | { kind: 'end'; takeover: Takeover }
    | null
  >(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [templateTarget, setTemplateTarget] = useState<Pick<TakeoverForm, 'target' | 'groupIds'>>({
    target: 'all',
    groupIds: new Set(),
  });
  const set = (patch: Partial<TakeoverForm>) => setForm((f) => ({ ...f, ...patch }));
  const problemText = (p: string) => t(`fleet.takeover.problems.${p}`);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const request = takeoverRequest(form);
    if ('problem' in request) return setProblem(problemText(request.problem));
    setProblem(null);
    setConfirmError(null);
    setConfirm({ kind: 'start', request, what: names.content(request.content) });
  };
  const save = () => {
    const parts = takeoverParts(form);
    if ('problem' in parts) return setProblem(problemText(parts.problem));
    setProblem(null);
    saveTemplate.mutate(
      { name: templateName, ...parts },
      {
        onSuccess: () => {
          toast({ title: t('fleet.templates.saved', { name: templateName.trim() }) });
          setTemplateName('');
        },
        onError: (err) => setProblem(describeError(err, t, t('fleet.failed'))),
      },
    );
  };
  const confirmed = () => {
    if (!confirm) return;
    setConfirmError(null);
    const onError = (err: unknown) => setConfirmError(describeError(err, t, t('fleet.failed')));
    if (confirm.kind === 'end') {
      end.mutate(confirm.takeover.id, {
        onSuccess: () => {
          setConfirm(null);
          toast({ title: t('fleet.takeover.ended') });
        },
        onError,
      });
      return;
    }
    const request: StartTakeoverRequest = confirm.template
      ? { target: targetOf(templateTarget), templateId: confirm.template.id }
      : confirm.request;
    start.mutate(request, {
      onSuccess: (started) => {
        setConfirm(null);
        toast({ title: t('fleet.takeover.started', { count: started.screenIds.length }) });
      },
      onError,
    });
  };
  const duration = (minutes: number | null) =>
    minutes === null ? t('fleet.takeover.untilEnded') : t('fleet.takeover.forMinutes', { count: minutes });

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle level={2}>{t('fleet.takeover.title')}</CardTitle>
          <p className="pc-muted">{t('fleet.takeover.intro')}</p>
        </CardHeader>
        <CardContent className="pc-stack">
          <section aria-labelledby="fleet-running-title" className="pc-stack">
            <h3 id="fleet-running-title">{t('fleet.takeover.running')}</h3>
            {(running.data ?? []).length === 0 ? (
              <p className="pc-muted" data-testid="fleet-no-takeover">
                {t('fleet.takeover.noneRunning')}
              </p>
            ) : (
              <ul className="pf-list" data-testid="fleet-running">
                {(running.data ?? []).map((r) => (
                  <li key={r.id} className="pf-running" data-testid={`fleet-takeover-${r.id}`}>
                    <strong>{names.content(r.content)}</strong>
                    <span>{t('fleet.takeover.onScreens', { count: r.screenIds.length })}</span>
                    <span className="pc-muted">
                      {r.endsAt
                        ? t('fleet.takeover.endsAt', { when: formatWhen(r.endsAt, i18n.language) })
                        : t('fleet.takeover.untilEnded')}
                    </span>
                    <Button
                      variant="destructive"
                      size="sm"
                      onClick={() => {
                        setConfirmError(null);
                        setConfirm({ kind: 'end', takeover: r });
                      }}
                    >
                      {t('fleet.takeover.end')}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="fleet-templates-title" className="pc-stack">
            <h3 id="fleet-templates-title">{t('fleet.templates.title')}</h3>
            {(templates.data ?? []).length === 0 ? (
              <p className="pc-muted">{t('fleet.templates.none')}</p>
            ) : (
              <ul className="pf-list" data-testid="fleet-templates">
                {(templates.data ?? []).map((tpl) => (
                  <li key={tpl.id} className="pf-running">
                    <strong>{tpl.name}</strong>
                    <span className="pc-muted">
                      {names.content(tpl.content)} · {duration(tpl.minutes)}
                    </span>
                    <Button
                      size="sm"
                      variant="destructive"
                      onClick={() => {
                        setConfirmError(null);
                        setConfirm({
                          kind: 'start',
                          template: tpl,
                          what: tpl.name,
                          request: { target: { kind: 'all' }, templateId: tpl.id },
                        });
                      }}
                    >
                      {t('fleet.templates.start', { name: tpl.name })}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => deleteTemplate.mutate(tpl.id)}
                      loading={deleteTemplate.isPending && deleteTemplate.variables === tpl.id}
                    >
                      {t('fleet.templates.delete', { name: tpl.name })}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <form className="pc-stack" onSubmit={submit} aria-labelledby="fleet-new-takeover-title">
            <h3 id="fleet-new-takeover-title">{t('fleet.takeover.new')}</h3>
            <TargetPicker
              idPrefix="fleet-new"
              groups={groups}
              value={form}
              onChange={(v) => set({ target: v.target, groupIds: v.groupIds })}
            />
            <div className="pc-field pf-narrow">
              <Label htmlFor="fleet-kind">{t('fleet.takeover.shows')}</Label>
              <select
                id="fleet-kind"
                className="pc-select"
                value={form.kind}
                onChange={(e) => set({ kind: e.target.value as TakeoverForm['kind'] })}
              >
                <option value="message">{t('fleet.takeover.message')}</option>
                <option value="file">{t('fleet.takeover.file')}</option>
              </select>
            </div>
            {form.kind === 'message' ? (
              <>
                <div className="pc-field">
                  <Label htmlFor="fleet-title">{t('fleet.takeover.messageTitle')}</Label>
                  <Input
                    id="fleet-title"
                    value={form.title}
                    onChange={(e) => set({ title: e.target.value })}
                    maxLength={80}
                  />
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
            ) : (
              <div className="pc-field">
                <Label htmlFor="fleet-file">{t('fleet.takeover.file')}</Label>
                <select
                  id="fleet-file"
                  className="pc-select"
                  value={form.fileId}
                  onChange={(e) => set({ fileId: e.target.value })}
                >
                  <option value="">{t('fleet.takeover.chooseFile')}</option>
                  {names.files.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.title}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <div className="pc-field pf-narrow">
              <Label htmlFor="fleet-duration">{t('fleet.takeover.duration')}</Label>
              <select
                id="fleet-duration"
                className="pc-select"
                value={form.duration}
                onChange={(e) => set({ duration: e.target.value as TakeoverForm['duration'] })}
              >
                <option value="minutes">{t('fleet.takeover.forSetTime')}</option>
                <option value="until-ended">{t('fleet.takeover.untilEnded')}</option>
              </select>
            </div>
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
            <div className="pf-inline">
              <Button type="submit" variant="destructive">
                {t('fleet.takeover.start')}
              </Button>
            </div>
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
              >
                {t('fleet.templates.save')}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      {confirm ? (
        <ConfirmDialog
          title={confirm.kind === 'end' ? t('fleet.takeover.endTitle') : t('fleet.takeover.startTitle')}
          confirm={confirm.kind === 'end' ? t('fleet.takeover.end') : t('fleet.takeover.start')}
          destructive
          pending={start.isPending || end.isPending}
          error={confirmError}
          onClose={() => setConfirm(null)}
          onConfirm={confirmed}
        >
          {confirm.kind === 'end' ? (
            <p>
              {t('fleet.takeover.endConfirm', {
                what: names.content(confirm.takeover.content),
                count: confirm.takeover.screenIds.length,
              })}
            </p>
          ) : (
            <>
              <p>{t('fleet.takeover.startConfirm', { what: confirm.what })}</p>
              {confirm.template ? (
                <TargetPicker
                  idPrefix="fleet-template"
                  groups={groups}
                  value={templateTarget}
                  onChange={setTemplateTarget}
                />
              ) : null}
            </>
          )}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
