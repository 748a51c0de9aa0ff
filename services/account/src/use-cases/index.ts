// What account does, between the routes and consumers (which parse and answer) and data/ and domain/: one file per
// operation, each taking the shared AccountDeps and its input.
export * from './background';
export * from './change-password';
export * from './deps';
export * from './get-current-user';
export * from './is-session-alive';
export * from './login';
export * from './logout';
export * from './mark-welcome-seen';
export * from './migrate-account';
export * from './open-session';
export * from './refresh-session';
export * from './register';
export * from './request-password-reset';
export * from './resend-verification';
export * from './reset-password';
export * from './send-contact-message';
export * from './update-profile';
export * from './verify-email';
