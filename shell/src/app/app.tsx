import { createQueryClient, Toaster } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from '@pagecast/router';
import { AppRoutes } from './routes';
import { seedSignedOut } from './session-hint';

const queryClient = createQueryClient();
seedSignedOut(queryClient);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
        <Toaster />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
