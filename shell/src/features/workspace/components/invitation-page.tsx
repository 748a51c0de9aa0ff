import { useTranslation } from '@pagecast/i18n';
import { Link, useLocation, useParams } from '@pagecast/router';
import {
  Button,
  buttonClass,
  Card,
  CardContent,
  CardFooter,
  CardHeader,
  CardTitle,
  describeError,
  isWelcomeOwed,
  rememberReturnPage,
  Spinner,
  toast,
  useAuth,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import './workspace.css';
import { invitationQuery, useAcceptInvitation } from '../api/workspaces';
import { formatMoment, personName, roleWord } from '../model/people';
import { useSwitchWorkspace } from '../model/switch-workspace';

/**
 * An invitation's link (/invitations/:token, from the mail): the workspace, who invited, the role and the expiry.
 * Signed in, the person accepts and lands in that workspace; signed out, logging in or registering brings them back
 * here: the page is remembered in this tab and carried for the invited address's next sign-in in any tab (a
 * registration's verification link opens another), until the invitation expires. A first sign-in that came here
 * instead of the welcome goes on to the welcome once accepted. The server's refusals (expired, revoked or unknown,
 * another address, already a member) are said in words.
 */
export function InvitationPage() {
  const { t, i18n } = useTranslation();
  const { token = '' } = useParams();
  const { user } = useAuth();
  const welcomeOwed = isWelcomeOwed(useLocation().state);
  const offer = useQuery({ ...invitationQuery(token), enabled: Boolean(token) });
  const accept = useAcceptInvitation(token);
  const switchTo = useSwitchWorkspace(user?.id);
  const [failure, setFailure] = useState<string | undefined>();
  const here = `/invitations/${encodeURIComponent(token)}`;
  const data = offer.data;
  const comeBack = () => data && rememberReturnPage(here, { carryFor: { email: data.email, until: data.expiresAt } });
  return (
    <div className="pc-container pc-page" data-testid="invitation-page">
      <Card style={{ maxWidth: 620, margin: '0 auto' }}>
        <CardHeader>
          <CardTitle level={1}>
            {data ? t('workspace.invitation.title', { name: data.workspaceName }) : t('workspace.invitation.heading')}
          </CardTitle>
        </CardHeader>
        <CardContent className="pc-stack">
          {offer.isLoading ? <Spinner label={t('common.loading')} /> : null}
          {offer.error ? (
            <p role="alert" className="pc-error-text" data-testid="invitation-error">
              {describeError(offer.error, t, t('workspace.errors.fallback'))}
            </p>
          ) : null}
          {data ? (
            <dl className="pc-facts">
              <dt>{t('workspace.invitation.workspace')}</dt>
              <dd data-testid="invitation-workspace">{data.workspaceName}</dd>
              <dt>{t('workspace.invitation.inviter')}</dt>
              <dd data-testid="invitation-inviter">
                {personName(data.inviter, i18n.language) || t('workspace.invitation.someone')}
              </dd>
              <dt>{t('workspace.invitation.role')}</dt>
              <dd data-testid="invitation-role">{roleWord(t, data.role)}</dd>
              <dt>{t('workspace.invitation.address')}</dt>
              <dd>{data.email}</dd>
              <dt>{t('workspace.invitation.expires')}</dt>
              <dd data-testid="invitation-expires">{formatMoment(data.expiresAt, i18n.language)}</dd>
            </dl>
          ) : null}
          {failure ? (
            <p role="alert" className="pc-error-text" data-testid="invitation-accept-error">
              {failure}
            </p>
          ) : null}
          {data && !user ? (
            <p style={{ margin: 0 }}>{t('workspace.invitation.signedOut', { email: data.email })}</p>
          ) : null}
        </CardContent>
        {data ? (
          <CardFooter className="pc-row" style={{ justifyContent: 'flex-end', flexWrap: 'wrap', gap: 8 }}>
            {user ? (
              <Button
                data-testid="invitation-accept"
                loading={accept.isPending}
                onClick={() => {
                  setFailure(undefined);
                  accept.mutate(undefined, {
                    onSuccess: ({ workspace }) => {
                      toast({ title: t('workspace.invitation.joined', { name: workspace.name }) });
                      switchTo(workspace.id, welcomeOwed ? '/welcome' : '/');
                    },
                    onError: (error) => setFailure(describeError(error, t, t('workspace.errors.fallback'))),
                  });
                }}
              >
                {t('workspace.invitation.accept')}
              </Button>
            ) : (
              <>
                <Link
                  to="/register"
                  className={buttonClass('outline')}
                  data-testid="invitation-register"
                  onClick={comeBack}
                >
                  {t('workspace.invitation.register')}
                </Link>
                <Link to="/login" className={buttonClass('primary')} data-testid="invitation-login" onClick={comeBack}>
                  {t('workspace.invitation.login')}
                </Link>
              </>
            )}
          </CardFooter>
        ) : null}
      </Card>
    </div>
  );
}
