// The rules of account as plain functions and types. Imports nothing from http/, events/ or data/.
export * from './locale';
export * from './mail-templates';
export * from './passwords';
export * from './rules';
export * from './tokens';
export * from './user';
