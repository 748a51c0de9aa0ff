// The route table of spec point 2: one set of routes when signed in, another when not; /signage/:fileId always.
import { Spinner, useAuth } from '@pagecast/ui';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { AppFrame, PublicFrame } from '../components/app-frame';
import { PlaceholderPage } from '../features/account/placeholder-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { LandingPage } from '../features/landing/landing-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { PointsPage } from '../features/points/points-page';
import { RemoteRoute } from '../federation/remote-route';

// The login form brings zod and react-hook-form: its own chunk, out of the first download.
const LoginPage = lazy(() => import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })));

function PageLoading() {
  const { t } = useTranslation();
  return <Spinner label={t('common.loading')} />;
}

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

const files = <RemoteRoute remote="mf_files" component="FilesPage" />;
const marketplace = <RemoteRoute remote="mf_marketplace" component="MarketplacePage" />;
const playlists = <RemoteRoute remote="mf_player" component="PlaylistsPage" />;
const placeholder = (titleKey: string) => <PlaceholderPage titleKey={titleKey} />;

function signedInRoutes() {
  return (
    <Route element={<AppFrame />}>
      <Route index element={<DashboardPage />} />
      <Route path="/files" element={files} />
      <Route path="/playbook" element={playlists} />
      <Route path="/playback" element={playlists} />
      <Route path="/marketplace" element={marketplace} />
      <Route path="/points" element={<PointsPage />} />
      <Route path="/settings" element={placeholder('settings.title')} />
      <Route path="/welcome" element={placeholder('auth.welcome.title')} />
      <Route path="/migrate-account" element={placeholder('auth.migrate.title')} />
      <Route path="/contact" element={placeholder('auth.contact.title')} />
      <Route path="/login" element={lazyPage(<LoginPage />)} />
      <Route path="/verify-email" element={placeholder('auth.verifyEmail.title')} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  );
}

function signedOutRoutes() {
  return (
    <>
      <Route index element={<LandingPage />} />
      <Route element={<PublicFrame />}>
        <Route path="/login" element={lazyPage(<LoginPage />)} />
        <Route path="/register" element={placeholder('auth.register.title')} />
        <Route path="/request-password-reset" element={placeholder('auth.requestPasswordReset.title')} />
        <Route path="/reset-password" element={placeholder('auth.resetPassword.title')} />
        <Route path="/verify-email" element={placeholder('auth.verifyEmail.title')} />
        <Route path="/contact" element={placeholder('auth.contact.title')} />
        {/* Pages of the signed-in table that send a visitor to /login themselves (remembered path, toast, 500 ms);
            the remotes are still loaded so that they do it in their own route component. */}
        <Route path="/files" element={files} />
        <Route path="/marketplace" element={marketplace} />
        <Route path="/playbook" element={playlists} />
        <Route path="/playback" element={playlists} />
        <Route path="/points" element={<PointsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </>
  );
}

export function AppRoutes() {
  const { user, isLoading } = useAuth();
  return (
    <Routes>
      <Route path="/signage/:fileId" element={<RemoteRoute remote="mf_player" component="SignagePage" />} />
      {isLoading ? <Route path="*" element={<PageLoading />} /> : user ? signedInRoutes() : signedOutRoutes()}
    </Routes>
  );
}
