import { Toaster } from '@pagecast/ui';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from '@pagecast/router';
import type { ReactNode } from 'react';
import { AppRoutes } from './routes';

/** What every start of the shell renders inside its router: the same tree in the browser and in the prerender. */
export function AppContent() {
  return (
    <>
      <AppRoutes />
      <Toaster />
    </>
  );
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppContent />
      </BrowserRouter>
    </AppProviders>
  );
}
