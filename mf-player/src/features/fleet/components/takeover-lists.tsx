import type { ScreenGroup, Takeover, TakeoverTemplate } from '@pagecast/contracts';
import { Button } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import type { Ref } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { takeoversQuery, templatesQuery, useDeleteTemplate } from '../api/fleet-api';
import { useNames } from '../../../lib/use-names';
import { useMay } from '../../../lib/use-may';

const formatWhen = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * The takeovers running now: what (a message's title and words), where (the groups by name, or all screens, and
 * the screens' names), until when, and its end (for a role with takeovers.end). `headingRef`: the page brings it
 * into view once one started.
 */
export function RunningTakeovers({
  groups,
  onEnd,
  headingRef,
}: {
  groups: ScreenGroup[];
  onEnd: (takeover: Takeover) => void;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t, i18n } = useTranslation();
  const names = useNames();
  const mayEnd = useMay('takeovers.end');
  const running = useQuery(takeoversQuery);
  const list = running.data ?? [];
  return (
    <section aria-labelledby="fleet-running-title" className="pc-stack">
      <h3 id="fleet-running-title" ref={headingRef} tabIndex={-1}>
        {t('fleet.takeover.running')}
      </h3>
      {list.length === 0 ? (
        <p className="pc-muted" data-testid="fleet-no-takeover">
          {t('fleet.takeover.noneRunning')}
        </p>
      ) : (
        <ul className="pf-list" data-testid="fleet-running">
          {list.map((r) => (
            <li key={r.id} className="pf-running" data-testid={`fleet-takeover-${r.id}`}>
              <div className="pf-running__what">
                <strong>{names.content(r.content)}</strong>
                {r.content.kind === 'message' && r.content.body ? (
                  <span className="pf-running__body">{r.content.body}</span>
                ) : null}
              </div>
              <span data-testid="fleet-running-target">
                {t('fleet.takeover.where', {
                  target: names.target(r.target, groups),
                  count: r.screenIds.length,
                })}
              </span>
              <span className="pc-muted">
                {r.endsAt
                  ? t('fleet.takeover.endsAt', { when: formatWhen(r.endsAt, i18n.language) })
                  : t('fleet.takeover.untilEnded')}
              </span>
              {mayEnd ? (
                <Button variant="destructive" size="sm" onClick={() => onEnd(r)} data-testid="fleet-takeover-end">
                  {t('fleet.takeover.end')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The saved templates: each starts in two clicks (its button, then the confirmation; takeovers.start), or is deleted
 * (takeover-templates.write); a role without either sees the list only.
 */
export function TemplateList({ onStart }: { onStart: (template: TakeoverTemplate) => void }) {
  const { t } = useTranslation();
  const names = useNames();
  const templates = useQuery(templatesQuery);
  const deleteTemplate = useDeleteTemplate();
  const mayStart = useMay('takeovers.start');
  const mayDelete = useMay('takeover-templates.write');
  const list = templates.data ?? [];
  const duration = (minutes: number | null) =>
    minutes === null ? t('fleet.takeover.untilEnded') : t('fleet.takeover.forMinutes', { count: minutes });
  return (
    <section aria-labelledby="fleet-templates-title" className="pc-stack">
      <h3 id="fleet-templates-title">{t('fleet.templates.title')}</h3>
      {list.length === 0 ? (
        <p className="pc-muted">{t('fleet.templates.none')}</p>
      ) : (
        <ul className="pf-list" data-testid="fleet-templates">
          {list.map((tpl) => (
            <li key={tpl.id} className="pf-running">
              <strong>{tpl.name}</strong>
              <span className="pc-muted">
                {names.content(tpl.content)} · {duration(tpl.minutes)}
              </span>
              {mayStart ? (
                <Button size="sm" variant="destructive" onClick={() => onStart(tpl)} data-testid="fleet-template-start">
                  {t('fleet.templates.start', { name: tpl.name })}
                </Button>
              ) : null}
              {mayDelete ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => deleteTemplate.mutate(tpl.id)}
                  loading={deleteTemplate.isPending && deleteTemplate.variables === tpl.id}
                  data-testid="fleet-template-delete"
                >
                  {t('fleet.templates.delete', { name: tpl.name })}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
