// The rules of account as plain functions and types. Imports nothing from http/, events/ or data/.
export * from './alert-mail';
export * from './known-browser';
export * from './locale';
export * from './login-throttle';
export * from './mail-templates';
export * from './names';
export * from './passwords';
export * from './rules';
export * from './tokens';
export * from './user';
export * from './alert-takeover-mail';
export * from './invitation-mail';
export * from './proposal-mail';
export * from './workspace';
export * from './audit';
