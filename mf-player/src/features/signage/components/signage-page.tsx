import { constants } from '@pagecast/contracts';
import {
  buttonClass,
  Card,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  HttpError,
  rememberReturnPage,
  Spinner,
  toast,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { playerFileQuery } from '../api/get-player-file';

export type LoadFailure = 'login' | 'not-found' | 'failed';

/** Spec points 2 and 6: 401 → log in; 403 and 404 → not found (deleted or no access); anything else → failed. */
export function classifyLoadError(error: unknown): LoadFailure {
  if (error instanceof HttpError) {
    if (error.status === 401) return 'login';
    if (error.status === 403 || error.status === 404) return 'not-found';
  }
  return 'failed';
}

function StateCard({ title, description, back }: { title: string; description: string; back?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="pc-center" style={{ minHeight: '100vh' }}>
      <Card className="pc-state-card" data-testid="player-error" role="alert">
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        {back ? (
          <CardFooter>
            <Link to="/" className={buttonClass('primary')}>
              {t('player.backToDashboard')}
            </Link>
          </CardFooter>
        ) : null}
      </Card>
    </div>
  );
}

/** The signage player (/signage/:fileId). The full player comes in a later issue; this loads the file. */
export function SignagePage() {
  const { t } = useTranslation();
  const { fileId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const file = useQuery(playerFileQuery(fileId));
  const failure = file.error ? classifyLoadError(file.error) : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure, not again when the language or navigate changes
  useEffect(() => {
    if (failure !== 'login') return;
    rememberReturnPage(`${location.pathname}${location.search}`);
    toast({ title: t('toasts.loginRequired'), variant: 'destructive' });
    const timer = setTimeout(() => navigate('/login'), constants.redirectDelaysMs.playerLoginRequired);
    return () => clearTimeout(timer);
  }, [failure]);

  let body: ReactNode;
  if (file.isLoading) body = <Spinner label={t('player.loading')} />;
  else if (failure === 'not-found')
    body = <StateCard title={t('player.notFoundTitle')} description={t('player.notFoundDescription')} back />;
  else if (failure === 'login') body = <Spinner />;
  else if (failure || !file.data)
    body = <StateCard title={t('player.loadFailedTitle')} description={t('player.loadFailedDescription')} />;
  else
    body = (
      <div className="pc-center" style={{ minHeight: '100vh' }}>
        <Card className="pc-state-card">
          <CardHeader>
            <CardTitle>{file.data.title}</CardTitle>
            <CardDescription>{t('player.pagesCount', { count: file.data.pageCount })}</CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  return <div data-testid="remote-mf_player">{body}</div>;
}
