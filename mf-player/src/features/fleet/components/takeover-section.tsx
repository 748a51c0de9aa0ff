import type { ScreenGroup, StartTakeoverRequest, Takeover, TakeoverTemplate } from '@pagecast/contracts';
import { Card, CardContent, CardHeader, CardTitle, describeError, toast } from '@pagecast/ui';
import { useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useEndTakeover, useStartTakeover } from '../api/fleet-api';
import { type TakeoverForm, targetOf } from '../model/fleet-model';
import { useNames } from '../../../lib/use-names';
import { ConfirmDialog } from './confirm-dialog';
import { RunningTakeovers, TemplateList } from './takeover-lists';
import { NewTakeoverForm, TargetPicker } from './takeover-form';

type Confirming =
  | { kind: 'start'; request: StartTakeoverRequest; what: string; template?: TakeoverTemplate }
  | { kind: 'end'; takeover: Takeover }
  | null;

/**
 * Takeovers: the running ones and their end, templates, a new one; each start and end is confirmed. Once one
 * started, the form is emptied (a second start is typed anew, not one click away) and the running list is brought
 * into view with the focus on its heading.
 */
export function TakeoverSection({ groups }: { groups: ScreenGroup[] }) {
  const { t } = useTranslation();
  const names = useNames();
  const start = useStartTakeover();
  const end = useEndTakeover();
  const [confirm, setConfirm] = useState<Confirming>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const runningHeading = useRef<HTMLHeadingElement>(null);
  const [templateTarget, setTemplateTarget] = useState<Pick<TakeoverForm, 'target' | 'groupIds'>>({
    target: 'all',
    groupIds: new Set(),
  });
  const ask = (next: Confirming) => {
    setConfirmError(null);
    setConfirm(next);
  };
  const onError = (err: unknown) => setConfirmError(describeError(err, t, t('fleet.failed')));
  const confirmed = () => {
    if (!confirm) return;
    setConfirmError(null);
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
        if (!confirm.template) setFormKey((k) => k + 1);
        toast({ title: t('fleet.takeover.started', { count: started.screenIds.length }) });
        runningHeading.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
        runningHeading.current?.focus({ preventScroll: true });
      },
      onError,
    });
  };

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle level={2}>{t('fleet.takeover.title')}</CardTitle>
          <p className="pc-muted">{t('fleet.takeover.intro')}</p>
        </CardHeader>
        <CardContent className="pc-stack">
          <RunningTakeovers
            groups={groups}
            headingRef={runningHeading}
            onEnd={(takeover) => ask({ kind: 'end', takeover })}
          />
          <TemplateList
            onStart={(tpl) =>
              ask({
                kind: 'start',
                template: tpl,
                what: tpl.name,
                request: { target: { kind: 'all' }, templateId: tpl.id },
              })
            }
          />
          <NewTakeoverForm
            key={formKey}
            groups={groups}
            onStart={(request, what) => ask({ kind: 'start', request, what })}
          />
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
