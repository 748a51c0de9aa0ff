// Standalone page of this remote (`npm -w mf-files run dev`): the same providers the shell gives it, so the remote
// can be developed and tested alone. /api is proxied to GATEWAY_URL by the dev server.
import '@pagecast/ui/styles.css';
import { initI18n, LanguageSwitcher } from '@pagecast/i18n';
import { createQueryClient, Toaster } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Navigate, Route, Routes } from 'react-router';
import routes from './routes/index';

function StandaloneLogin() {
  const { t } = useTranslation();
  return (
    <div className="pc-container pc-page">
      <h1 className="pc-page__title">{t('toasts.loginRequired')}</h1>
      <Link to="/files">/files</Link>
    </div>
  );
}

const queryClient = createQueryClient();

function Standalone() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <div className="pc-container pc-row" style={{ justifyContent: 'flex-end', paddingTop: 12 }}>
          <LanguageSwitcher />
        </div>
        <Routes>
          <Route path="/" element={<Navigate to="/files" replace />} />
          <Route path="/files" element={<routes.FilesPage />} />
          <Route path="/login" element={<StandaloneLogin />} />
        </Routes>
        <Toaster />
      </BrowserRouter>
    </QueryClientProvider>
  );
}

void initI18n().then(() => {
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<Standalone />);
});
