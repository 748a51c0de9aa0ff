// The standalone page of a remote (`npm -w mf-files run dev`): the same providers the shell gives it, so a remote can
// be developed and tested alone. /api is proxied to GATEWAY_URL by its dev server. A separate entry point
// (`@pagecast/ui/standalone`) so the shell's bundle never carries it.
import { initI18n, LanguageSwitcher, useTranslation } from '@pagecast/i18n';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Navigate, Route, Routes } from '@pagecast/router';
import { createQueryClient } from './session/query-client';
import { Toaster } from './toast/toaster';

export interface StandaloneOptions {
  /** Where / goes, e.g. '/files'. */
  home: string;
  routes: ReadonlyArray<{ path: string; element: ReactNode }>;
}

function StandaloneLogin({ home }: { home: string }) {
  const { t } = useTranslation();
  return (
    <div className="pc-container pc-page">
      <h1 className="pc-page__title">{t('toasts.loginRequired')}</h1>
      <Link to={home}>{home}</Link>
    </div>
  );
}

export function mountStandalone({ home, routes }: StandaloneOptions): void {
  const queryClient = createQueryClient();
  const app = (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <div className="pc-container pc-row" style={{ justifyContent: 'flex-end', paddingTop: 12 }}>
          <LanguageSwitcher />
        </div>
        <Routes>
          <Route path="/" element={<Navigate to={home} replace />} />
          {routes.map((r) => (
            <Route key={r.path} path={r.path} element={r.element} />
          ))}
          <Route path="/login" element={<StandaloneLogin home={home} />} />
        </Routes>
        <Toaster />
      </BrowserRouter>
    </QueryClientProvider>
  );
  void initI18n().then(() => {
    const root = document.getElementById('root');
    if (root) createRoot(root).render(app);
  });
}
