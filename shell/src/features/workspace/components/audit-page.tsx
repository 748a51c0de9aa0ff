import { AuditAction, AuditObjectType, type AuditRecord } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  ChangeList,
  describeError,
  Field,
  Input,
  Spinner,
  toast,
  useSessionExpired,
  useWorkspaceCan,
} from '@pagecast/ui';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { type AuditFilter, auditQuery, downloadAuditCsv } from '../api/audit';
import { membersQuery } from '../api/workspaces';
import {
  auditActionWord,
  auditActorWord,
  auditObjectWord,
  dayEnd,
  dayStart,
  formatAuditMoment,
  formerActor,
} from '../model/audit';
import { personName } from '../model/people';
import { useActiveWorkspace } from '../model/use-workspace';
import './workspace.css';
import { WorkspacePageHeader } from './workspace-page-header';

/**
 * The workspace's audit log for its owner and admins (`audit.read`): who changed what, when, from which address,
 * with the difference (before and after); filters, older pages on demand, and the CSV of the same filters. Entries hold
 * codes only: this page words them in the reader's language.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const active = useActiveWorkspace();
  const reader = useWorkspaceCan('audit.read');
  if (!active) return null;
  return (
    <div className="pc-container pc-page" data-testid="audit-page">
      <div className="pc-stack" style={{ maxWidth: 1100, margin: '0 auto' }}>
        <WorkspacePageHeader title={t('workspace.audit.title')} active={active} />
        {!active.role ? (
          <Spinner label={t('common.loading')} />
        ) : reader ? (
          <AuditLog workspaceId={active.id} />
        ) : (
          <p role="alert" className="pc-error-text" data-testid="audit-refused">
            {t('workspace.audit.refused')}
          </p>
        )}
      </div>
    </div>
  );
}

interface FilterForm {
  actor: string;
  action: string;
  objectType: string;
  from: string;
  to: string;
}

const EMPTY: FilterForm = { actor: '', action: '', objectType: '', from: '', to: '' };

function toFilter(form: FilterForm): AuditFilter {
  return {
    actor: form.actor || undefined,
    action: (form.action || undefined) as AuditFilter['action'],
    objectType: (form.objectType || undefined) as AuditFilter['objectType'],
    // the reader's days, in their time zone: from the first moment of the first to the last of the second
    from: form.from ? dayStart(form.from) : undefined,
    to: form.to ? dayEnd(form.to) : undefined,
  };
}

function AuditLog({ workspaceId }: { workspaceId: string }) {
  const { t, i18n } = useTranslation();
  const sessionExpired = useSessionExpired();
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const filter = useMemo(() => toFilter(form), [form]);
  const log = useInfiniteQuery(auditQuery(workspaceId, filter));
  const members = useQuery(membersQuery(workspaceId));
  const [exporting, setExporting] = useState(false);
  const names = useMemo(() => {
    const byId = new Map<string, string>();
    for (const m of members.data?.members ?? []) byId.set(m.userId, personName(m, i18n.language));
    return byId;
  }, [members.data, i18n.language]);
  const rows = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const nameOf = (id: string) => names.get(id);
  // people who acted and are no member any more: the actor filter still offers them (by their id, which the rows
  // keep in their title), gathered from every page read so far so a filter on one does not lose the others
  const [formers, setFormers] = useState<string[]>([]);
  const seenFormers = members.data
    ? [...new Set([...rows.map((r) => r.actorUserId), form.actor].filter((id) => id && formerActor(id, nameOf)))]
    : [];
  const newFormers = seenFormers.filter((id) => !formers.includes(id)).join(' ');
  useEffect(() => {
    if (newFormers) setFormers((known) => [...known, ...newFormers.split(' ').filter((id) => !known.includes(id))]);
  }, [newFormers]);
  const set = (key: keyof FilterForm) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const exportCsv = async () => {
    setExporting(true);
    try {
      const day = new Date().toISOString().slice(0, 10);
      await downloadAuditCsv(workspaceId, filter, `audit-${workspaceId}-${day}.csv`);
    } catch (error) {
      if (!sessionExpired(error)) {
        toast({
          title: t('workspace.audit.exportFailed'),
          description: describeError(error, t, t('workspace.errors.fallback')),
          variant: 'destructive',
        });
      }
    } finally {
      setExporting(false);
    }
  };
  const filtered = Object.values(form).some(Boolean);
  return (
    <>
      <Card data-testid="audit-filters">
        <CardHeader>
          <CardTitle level={2}>{t('workspace.audit.filters')}</CardTitle>
        </CardHeader>
        <CardContent className="pc-row" style={{ gap: 16, flexWrap: 'wrap', alignItems: 'flex-end' }}>
          <Field id="audit-action" label={t('workspace.audit.action')}>
            <Choice id="audit-action" value={form.action} onChange={set('action')} all={t('workspace.audit.all')}>
              {AuditAction.options.map((code) => (
                <option key={code} value={code}>
                  {auditActionWord(t, code)}
                </option>
              ))}
            </Choice>
          </Field>
          <Field id="audit-object-type" label={t('workspace.audit.objectType')}>
            <Choice
              id="audit-object-type"
              value={form.objectType}
              onChange={set('objectType')}
              all={t('workspace.audit.all')}
            >
              {AuditObjectType.options.map((type) => (
                <option key={type} value={type}>
                  {auditObjectWord(t, type)}
                </option>
              ))}
            </Choice>
          </Field>
          <Field id="audit-actor" label={t('workspace.audit.member')}>
            <Choice id="audit-actor" value={form.actor} onChange={set('actor')} all={t('workspace.audit.all')}>
              {(members.data?.members ?? []).map((m) => (
                <option key={m.userId} value={m.userId}>
                  {names.get(m.userId)}
                </option>
              ))}
              {formers
                .filter((id) => formerActor(id, nameOf))
                .map((id) => (
                  <option key={id} value={id}>
                    {t('workspace.audit.formerMemberId', { id })}
                  </option>
                ))}
            </Choice>
          </Field>
          <Field id="audit-from" label={t('workspace.audit.from')}>
            <Input
              id="audit-from"
              type="date"
              value={form.from}
              max={form.to || undefined}
              data-testid="audit-from"
              onChange={(e) => set('from')(e.target.value)}
            />
          </Field>
          <Field id="audit-to" label={t('workspace.audit.to')}>
            <Input
              id="audit-to"
              type="date"
              value={form.to}
              min={form.from || undefined}
              data-testid="audit-to"
              onChange={(e) => set('to')(e.target.value)}
            />
          </Field>
          {filtered ? (
            <Button variant="outline" size="sm" data-testid="audit-clear" onClick={() => setForm(EMPTY)}>
              {t('workspace.audit.clear')}
            </Button>
          ) : null}
          <Button
            variant="outline"
            size="sm"
            data-testid="audit-export"
            loading={exporting}
            onClick={() => void exportCsv()}
          >
            {t('workspace.audit.export')}
          </Button>
        </CardContent>
      </Card>
      <Card data-testid="audit-card">
        <CardContent>
          {log.isLoading ? <Spinner label={t('common.loading')} /> : null}
          {log.error ? (
            <p role="alert" className="pc-error-text" data-testid="audit-error">
              {describeError(log.error, t, t('workspace.errors.fallback'))}
            </p>
          ) : null}
          {log.isSuccess && rows.length === 0 ? (
            <p className="pc-muted" data-testid="audit-empty">
              {filtered ? t('workspace.audit.emptyFiltered') : t('workspace.audit.empty')}
            </p>
          ) : null}
          {rows.length > 0 ? (
            <>
              <p className="pc-muted" data-testid="audit-count">
                {t('workspace.audit.shown', { count: rows.length })}
              </p>
              <div className="pc-audit__scroll">
                <table className="pc-audit">
                  <thead>
                    <tr>
                      <th scope="col">{t('workspace.audit.when')}</th>
                      <th scope="col">{t('workspace.audit.who')}</th>
                      <th scope="col">{t('workspace.audit.action')}</th>
                      <th scope="col">{t('workspace.audit.object')}</th>
                      <th scope="col">{t('workspace.audit.address')}</th>
                      <th scope="col">{t('workspace.audit.change')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <AuditRow
                        key={row.id}
                        row={row}
                        // until the members are read nobody is taken for a former member (unreadable: the id)
                        who={
                          members.data
                            ? auditActorWord(t, row.actorUserId, nameOf)
                            : members.isError
                              ? row.actorUserId
                              : ''
                        }
                        former={Boolean(members.data) && formerActor(row.actorUserId, nameOf)}
                        t={t}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : null}
          {log.hasNextPage ? (
            <div className="pc-row" style={{ justifyContent: 'center', marginTop: 12 }}>
              <Button
                variant="outline"
                data-testid="audit-more"
                loading={log.isFetchingNextPage}
                onClick={() => void log.fetchNextPage()}
              >
                {t('workspace.audit.more')}
              </Button>
            </div>
          ) : null}
        </CardContent>
      </Card>
      <p>
        <Link to="/workspace/members">{t('workspace.audit.toMembers')}</Link>
      </p>
    </>
  );
}

function Choice({
  id,
  value,
  onChange,
  all,
  children,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  all: string;
  children: ReactNode;
}) {
  return (
    <select id={id} className="pc-select" data-testid={id} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{all}</option>
      {children}
    </select>
  );
}

function AuditRow({ row, who, former, t }: { row: AuditRecord; who: string; former: boolean; t: TFunction }) {
  const { i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const diffId = useId();
  return (
    <tr data-testid={`audit-row-${row.seq}`}>
      <td>
        <time dateTime={row.at}>{formatAuditMoment(row.at, i18n.language)}</time>
      </td>
      <td data-testid={`audit-who-${row.seq}`}>
        {/* a former member in words, their id at hand for an auditor (the title, and the actor filter) */}
        {former ? <span title={row.actorUserId}>{who}</span> : who}
      </td>
      <td data-testid={`audit-action-${row.seq}`}>{auditActionWord(t, row.action)}</td>
      <td>
        {auditObjectWord(t, row.object.type)}{' '}
        <code className="pc-audit__id" data-generated="">
          {row.object.id}
        </code>
      </td>
      <td>
        <code data-generated="">{row.address}</code>
      </td>
      <td>
        {row.diff.length === 0 ? (
          <span className="pc-muted">{t('workspace.audit.noChange')}</span>
        ) : (
          <div data-testid={`audit-diff-${row.seq}`}>
            <button
              type="button"
              className="pc-audit__toggle"
              aria-expanded={open}
              aria-controls={diffId}
              data-testid={`audit-diff-toggle-${row.seq}`}
              onClick={() => setOpen((v) => !v)}
            >
              {t('workspace.audit.changes', { count: row.diff.length })}
            </button>
            {open ? <ChangeList changes={row.diff} id={diffId} /> : null}
          </div>
        )}
      </td>
    </tr>
  );
}
