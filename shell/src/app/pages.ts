// The shell's own pages that are separate chunks (the account forms bring zod and react-hook-form, the points page
// Stripe's bindings), by the path that shows them. The entry calls preloadPage() before its async boundary, so the
// page a visitor opened (/login from a link or a bookmark) downloads beside the framework's chunks instead of after
// the router has rendered; React.lazy then finds the chunk loaded or on its way.
export const pageLoaders = {
  login: () => import('../features/auth/components/login-page'),
  register: () => import('../features/auth/components/register-page'),
  requestPasswordReset: () => import('../features/auth/components/request-password-reset-page'),
  resetPassword: () => import('../features/auth/components/reset-password-page'),
  verifyEmail: () => import('../features/auth/components/verify-email-page'),
  legal: () => import('../features/auth/components/legal-page'),
  points: () => import('../features/points/points-page'),
  welcome: () => import('../features/welcome/components/welcome-page'),
  settings: () => import('../features/settings/components/settings-page'),
  migrateAccount: () => import('../features/migrate-account/components/migrate-account-page'),
  contact: () => import('../features/contact/components/contact-page'),
  members: () => import('../features/workspace/components/members-page'),
  invitation: () => import('../features/workspace/components/invitation-page'),
  audit: () => import('../features/workspace/components/audit-page'),
};

const pageOfPath: Record<string, keyof typeof pageLoaders> = {
  '/login': 'login',
  '/register': 'register',
  '/request-password-reset': 'requestPasswordReset',
  '/reset-password': 'resetPassword',
  '/verify-email': 'verifyEmail',
  '/terms': 'legal',
  '/privacy': 'legal',
  '/points': 'points',
  '/welcome': 'welcome',
  '/settings': 'settings',
  '/migrate-account': 'migrateAccount',
  '/contact': 'contact',
  '/workspace/members': 'members',
  '/workspace/audit': 'audit',
};

/** Starts loading the chunk of the page at `pathname`, if it is one of those above. */
export function preloadPage(pathname: string): void {
  const path = pathname.replace(/\/+$/, '') || '/';
  const page = path.startsWith('/invitations/') ? 'invitation' : pageOfPath[path];
  if (page) pageLoaders[page]().catch(() => {}); // React.lazy loads it again and shows the failure
}
