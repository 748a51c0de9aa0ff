import { Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle, Spinner } from '@pagecast/ui';
import { Component, type ReactNode, Suspense, use, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import type { RemoteName } from './remote-list';
import { loadRemoteRoutes, resetRemote } from './remotes';

function RemoteUnavailable({ remote, onRetry }: { remote: RemoteName; onRetry: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Card className="pc-remote-fallback" data-testid={`remote-fallback-${remote}`} role="alert">
      <CardHeader>
        <CardTitle>{t('common.remoteUnavailable')}</CardTitle>
        <CardDescription>{t('common.remoteUnavailableHint')}</CardDescription>
      </CardHeader>
      <CardContent>
        <code className="pc-muted">{remote}</code>
      </CardContent>
      <CardFooter style={{ justifyContent: 'center' }}>
        <Button
          loading={busy}
          data-testid="remote-retry"
          onClick={() => {
            setBusy(true);
            onRetry();
          }}
        >
          {t('common.retry')}
        </Button>
      </CardFooter>
    </Card>
  );
}

interface BoundaryProps {
  remote: RemoteName;
  children: ReactNode;
  /** what shows while the remote loads (a spinner unless given) */
  fallback?: ReactNode;
}

/** Catches a remote that cannot be loaded (or that fails while rendering) so only its area is affected. */
class RemoteBoundary extends Component<BoundaryProps, { error: unknown; attempt: number }> {
  override state = { error: null as unknown, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.warn(`[federation] ${this.props.remote} failed`, error);
  }

  retry = async () => {
    await resetRemote(this.props.remote);
    this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));
  };

  override render() {
    if (this.state.error) return <RemoteUnavailable remote={this.props.remote} onRetry={() => void this.retry()} />;
    return (
      <Suspense key={this.state.attempt} fallback={this.props.fallback ?? <RemoteLoading />}>
        {this.props.children}
      </Suspense>
    );
  }
}

function RemoteLoading() {
  const { t } = useTranslation();
  return <Spinner label={t('common.loading')} />;
}

function RemoteComponent({ remote, component }: { remote: RemoteName; component: string }) {
  const routes = use(loadRemoteRoutes(remote));
  const Page = routes[component];
  if (!Page) throw new Error(`${remote}/routes has no ${component}`);
  return <Page />;
}

/** A route element served by a remote: `<RemoteRoute remote="mf_files" component="FilesPage" />`. */
export function RemoteRoute({
  remote,
  component,
  fallback,
}: {
  remote: RemoteName;
  component: string;
  fallback?: ReactNode;
}) {
  return (
    <RemoteBoundary remote={remote} fallback={fallback}>
      <RemoteComponent remote={remote} component={component} />
    </RemoteBoundary>
  );
}
