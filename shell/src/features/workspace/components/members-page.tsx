import {
  CreateInvitationRequest,
  INVITATION_VALID_DAYS,
  type InvitableRole,
  type WorkspaceInvitation,
  type WorkspaceMember,
  WORKSPACE_ROLES,
} from '@pagecast/contracts';
import { languages, useTranslation } from '@pagecast/i18n';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  describeError,
  Field,
  fieldAria,
  Input,
  Spinner,
  toast,
  useAuth,
  useSessionExpired,
  useWorkspaceCan,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from '@pagecast/router';
import {
  invitationsQuery,
  membersQuery,
  useChangeRole,
  useInvite,
  useRemoveMember,
  useRevokeInvitation,
  useUpdateWorkspaceSettings,
} from '../api/workspaces';
import './workspace.css';
import { formatMoment, personName, roleWord } from '../model/people';
import { useSwitchWorkspace } from '../model/switch-workspace';
import { useActiveWorkspace } from '../model/use-workspace';
import { WorkspacePageHeader } from './workspace-page-header';

const INVITABLE: InvitableRole[] = WORKSPACE_ROLES.filter((r): r is InvitableRole => r !== 'owner');

/**
 * The workspace's people: members and their roles, pending invitations and the invitation form for its owner and
 * admins (others read the list); anyone but the owner may leave. The server refuses what a role may not do; this
 * page only leaves out the controls it would refuse.
 */
export function MembersPage() {
  const { t } = useTranslation();
  const active = useActiveWorkspace();
  // the policy's table (owner and admins manage people); the server decides, this only leaves out controls
  const manager = useWorkspaceCan('workspace.members');
  const auditReader = useWorkspaceCan('audit.read');
  const settingsEditor = useWorkspaceCan('workspace.settings');
  if (!active) return null;
  return (
    <div className="pc-container pc-page" data-testid="members-page">
      <div className="pc-stack" style={{ maxWidth: 860, margin: '0 auto' }}>
        <WorkspacePageHeader title={t('workspace.members.title')} active={active}>
          {auditReader ? (
            <p style={{ margin: '8px 0 0' }}>
              <Link to="/workspace/audit" data-testid="members-audit-link">
                {t('workspace.audit.link')}
              </Link>
            </p>
          ) : null}
        </WorkspacePageHeader>
        <MembersCard workspaceId={active.id} manager={manager} />
        {settingsEditor ? <ApprovalCard workspaceId={active.id} approvalRequired={active.approvalRequired} /> : null}
        {manager ? <InvitationsCard workspaceId={active.id} /> : null}
        {manager ? <InviteCard workspaceId={active.id} /> : null}
        {active.role && active.role !== 'owner' ? <LeaveCard workspaceId={active.id} name={active.name} /> : null}
      </div>
    </div>
  );
}

function MembersCard({ workspaceId, manager }: { workspaceId: string; manager: boolean }) {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const members = useQuery(membersQuery(workspaceId));
  const sessionExpired = useSessionExpired();
  const changeRole = useChangeRole(workspaceId);
  const remove = useRemoveMember(workspaceId);
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null);
  const failed = (title: string) => (error: unknown) => {
    if (sessionExpired(error)) return;
    toast({ title, description: describeError(error, t, t('workspace.errors.fallback')), variant: 'destructive' });
  };
  const list = members.data?.members ?? [];
  return (
    <Card data-testid="members-card">
      <CardHeader>
        <CardTitle level={2}>{t('workspace.members.listTitle')}</CardTitle>
        <CardDescription>{t('workspace.members.count', { count: list.length })}</CardDescription>
      </CardHeader>
      <CardContent>
        {members.isLoading ? <Spinner label={t('common.loading')} /> : null}
        {members.error ? (
          <p role="alert" className="pc-error-text">
            {describeError(members.error, t, t('workspace.errors.fallback'))}
          </p>
        ) : null}
        <ul className="pc-list">
          {list.map((member) => {
            const name = personName(member, i18n.language);
            const editable = manager && member.role !== 'owner' && member.userId !== user?.id;
            return (
              <li key={member.userId} className="pc-list-row" data-testid={`member-${member.userId}`}>
                <div className="pc-list-row__main">
                  <span className="pc-list-row__title">{name}</span>
                  {name !== member.email ? <span className="pc-muted">{member.email}</span> : null}
                </div>
                {editable ? (
                  <>
                    <select
                      className="pc-select"
                      aria-label={t('workspace.members.roleOf', { name })}
                      data-testid={`member-role-${member.userId}`}
                      value={member.role}
                      disabled={changeRole.isPending}
                      onChange={(e) =>
                        changeRole.mutate(
                          { userId: member.userId, role: e.target.value as InvitableRole },
                          {
                            onSuccess: () => toast({ title: t('workspace.members.roleChanged', { name }) }),
                            onError: failed(t('workspace.members.roleChangeFailed')),
                          },
                        )
                      }
                    >
                      {INVITABLE.map((role) => (
                        <option key={role} value={role}>
                          {roleWord(t, role)}
                        </option>
                      ))}
                    </select>
                    <Button
                      variant="outline"
                      size="sm"
                      data-testid={`member-remove-${member.userId}`}
                      onClick={() => setRemoving(member)}
                    >
                      {t('workspace.members.remove')}
                    </Button>
                  </>
                ) : (
                  <span className="pc-muted">{roleWord(t, member.role)}</span>
                )}
              </li>
            );
          })}
        </ul>
      </CardContent>
      <Dialog
        open={removing !== null}
        onOpenChange={(open) => (open ? null : setRemoving(null))}
        title={t('workspace.members.removeTitle')}
        description={removing ? t('workspace.members.removeBody', { name: personName(removing, i18n.language) }) : ''}
        footer={
          <>
            <Button variant="outline" onClick={() => setRemoving(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              variant="destructive"
              data-testid="member-remove-confirm"
              loading={remove.isPending}
              onClick={() => {
                if (!removing) return;
                const name = personName(removing, i18n.language);
                remove.mutate(removing.userId, {
                  onSuccess: () => toast({ title: t('workspace.members.removed', { name }) }),
                  onError: failed(t('workspace.members.removeFailed')),
                  onSettled: () => setRemoving(null),
                });
              }}
            >
              {t('workspace.members.removeConfirm')}
            </Button>
          </>
        }
      />
    </Card>
  );
}

/**
 * The workspace's approval setting (owner and admins): when on, an editor's change of what screens play waits as a
 * proposal until a publisher or an administrator approves it. The switch shows the listed value; while the list has
 * not come it is off and disabled.
 */
function ApprovalCard({
  workspaceId,
  approvalRequired,
}: {
  workspaceId: string;
  approvalRequired: boolean | undefined;
}) {
  const { t } = useTranslation();
  const update = useUpdateWorkspaceSettings(workspaceId);
  const sessionExpired = useSessionExpired();
  const on = update.isPending ? Boolean(update.variables?.approvalRequired) : approvalRequired === true;
  const toggle = () =>
    update.mutate(
      { approvalRequired: !on },
      {
        onSuccess: (saved) =>
          toast({ title: t(saved.approvalRequired ? 'workspace.approval.turnedOn' : 'workspace.approval.turnedOff') }),
        onError: (error) => {
          if (sessionExpired(error)) return;
          toast({
            title: t('workspace.approval.failed'),
            description: describeError(error, t, t('workspace.errors.fallback')),
            variant: 'destructive',
          });
        },
      },
    );
  return (
    <Card data-testid="approval-card">
      <CardHeader>
        <CardTitle level={2}>{t('workspace.approval.title')}</CardTitle>
        <CardDescription id="approval-description">{t('workspace.approval.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <label className="pc-switch">
          <input
            type="checkbox"
            role="switch"
            className="pc-switch__input"
            checked={on}
            aria-checked={on}
            aria-describedby="approval-description"
            disabled={approvalRequired === undefined || update.isPending}
            data-testid="approval-switch"
            onChange={toggle}
          />
          <span className="pc-switch__track" aria-hidden="true">
            <span className="pc-switch__thumb" />
          </span>
          <span>{t('workspace.approval.label')}</span>
        </label>
        <p className="pc-muted" style={{ margin: '8px 0 0' }} data-testid="approval-state">
          {t(on ? 'workspace.approval.stateOn' : 'workspace.approval.stateOff')}
        </p>
      </CardContent>
    </Card>
  );
}

function InvitationsCard({ workspaceId }: { workspaceId: string }) {
  const { t, i18n } = useTranslation();
  const invitations = useQuery(invitationsQuery(workspaceId));
  const revoke = useRevokeInvitation(workspaceId);
  const sessionExpired = useSessionExpired();
  const list: WorkspaceInvitation[] = invitations.data?.invitations ?? [];
  return (
    <Card data-testid="invitations-card">
      <CardHeader>
        <CardTitle level={2}>{t('workspace.invitations.title')}</CardTitle>
        <CardDescription>{t('workspace.invitations.count', { count: list.length })}</CardDescription>
      </CardHeader>
      <CardContent>
        {invitations.error ? (
          <p role="alert" className="pc-error-text">
            {describeError(invitations.error, t, t('workspace.errors.fallback'))}
          </p>
        ) : null}
        <ul className="pc-list">
          {list.map((invitation) => (
            <li key={invitation.id} className="pc-list-row" data-testid={`invitation-${invitation.id}`}>
              <div className="pc-list-row__main">
                <span className="pc-list-row__title">{invitation.email}</span>
                <span className="pc-muted">
                  {t('workspace.invitations.line', {
                    role: roleWord(t, invitation.role),
                    expires: formatMoment(invitation.expiresAt, i18n.language),
                  })}
                </span>
              </div>
              <Button
                variant="outline"
                size="sm"
                aria-label={t('workspace.invitations.revokeFor', { email: invitation.email })}
                data-testid={`invitation-revoke-${invitation.id}`}
                onClick={() =>
                  revoke.mutate(invitation.id, {
                    onSuccess: () => toast({ title: t('workspace.invitations.revoked', { email: invitation.email }) }),
                    onError: (error) => {
                      if (sessionExpired(error)) return;
                      toast({
                        title: t('workspace.invitations.revokeFailed'),
                        description: describeError(error, t, t('workspace.errors.fallback')),
                        variant: 'destructive',
                      });
                    },
                  })
                }
              >
                {t('workspace.invitations.revoke')}
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function InviteCard({ workspaceId }: { workspaceId: string }) {
  const { t, i18n } = useTranslation();
  const invite = useInvite(workspaceId);
  const sessionExpired = useSessionExpired();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitableRole>('editor');
  const [language, setLanguage] = useState<string>(i18n.language.slice(0, 2));
  const [emailError, setEmailError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(undefined);
    const parsed = CreateInvitationRequest.safeParse({ email: email.trim(), role, language });
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? 'validation.emailInvalid');
      return;
    }
    setEmailError(undefined);
    invite.mutate(parsed.data, {
      onSuccess: (sent) => {
        setEmail('');
        toast({ title: t('workspace.invite.sent', { email: sent.email }) });
      },
      onError: (error) => {
        if (sessionExpired(error)) return;
        setFailure(describeError(error, t, t('workspace.errors.fallback')));
      },
    });
  };
  return (
    <Card data-testid="invite-card">
      <CardHeader>
        <CardTitle level={2}>{t('workspace.invite.title')}</CardTitle>
        <CardDescription>{t('workspace.invite.description', { count: INVITATION_VALID_DAYS })}</CardDescription>
      </CardHeader>
      <form noValidate onSubmit={submit}>
        <CardContent className="pc-stack">
          <Field id="invite-email" label={t('workspace.invite.email')} error={emailError}>
            <Input
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="invite-email"
              {...fieldAria('invite-email', emailError)}
            />
          </Field>
          <div className="pc-row" style={{ gap: 16, flexWrap: 'wrap' }}>
            <Field id="invite-role" label={t('workspace.invite.role')}>
              <select
                id="invite-role"
                className="pc-select"
                data-testid="invite-role"
                value={role}
                onChange={(e) => setRole(e.target.value as InvitableRole)}
              >
                {INVITABLE.map((r) => (
                  <option key={r} value={r}>
                    {roleWord(t, r)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="invite-language" label={t('workspace.invite.language')}>
              <select
                id="invite-language"
                className="pc-select"
                data-testid="invite-language"
                value={language}
                onChange={(e) => setLanguage(e.target.value)}
              >
                {languages.map((l) => (
                  <option key={l} value={l} lang={l}>
                    {t(`common.languages.${l}`)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          {failure ? (
            <p role="alert" className="pc-error-text" data-testid="invite-error">
              {failure}
            </p>
          ) : null}
          <div className="pc-row" style={{ justifyContent: 'flex-end' }}>
            <Button type="submit" loading={invite.isPending} data-testid="invite-submit">
              {t('workspace.invite.submit')}
            </Button>
          </div>
        </CardContent>
      </form>
    </Card>
  );
}

function LeaveCard({ workspaceId, name }: { workspaceId: string; name: string | undefined }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const switchTo = useSwitchWorkspace(user?.id);
  const remove = useRemoveMember(workspaceId);
  const sessionExpired = useSessionExpired();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  return (
    <Card data-testid="leave-card">
      <CardHeader>
        <CardTitle level={2}>{t('workspace.leave.title')}</CardTitle>
        <CardDescription>{t('workspace.leave.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" data-testid="leave-open" onClick={() => setOpen(true)}>
          {t('workspace.leave.action')}
        </Button>
      </CardContent>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t('workspace.leave.confirmTitle')}
        description={t('workspace.leave.confirmBody', { name: name ?? '' })}
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              variant="destructive"
              data-testid="leave-confirm"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(user.id, {
                  onSuccess: () => {
                    setOpen(false);
                    toast({ title: t('workspace.leave.done', { name: name ?? '' }) });
                    switchTo(undefined, '/');
                  },
                  onError: (error) => {
                    setOpen(false);
                    if (sessionExpired(error)) return;
                    toast({
                      title: t('workspace.leave.failed'),
                      description: describeError(error, t, t('workspace.errors.fallback')),
                      variant: 'destructive',
                    });
                  },
                })
              }
            >
              {t('workspace.leave.action')}
            </Button>
          </>
        }
      />
    </Card>
  );
}
