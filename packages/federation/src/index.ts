// The one Module Federation policy of Pagecast (docs/platform.md, "Front end composition") and the rspack
// configurations built on it, so that every front end's rspack.config.ts is a few lines:
//   configs/     base.ts (what every front end shares), remote.ts (a remote's two containers), host.ts (the shell)
//   plugins/     one build step each: html, build-label, precompress, source-maps-aside, startup-preload,
//                catalogue-list (and assets-step, the shape most of them take)
//   shared-policy.ts, shared-code.ts: the shared singletons, and the code of theirs the host puts in one chunk
export type { FrontEndOptions } from './configs/base';
export { hostConfig } from './configs/host';
export {
  LEAN_ENTRY,
  LEAN_MANIFEST,
  type RemoteOptions,
  remoteConfig,
  remoteConfigs,
  remoteLeanConfig,
} from './configs/remote';
export { SOURCE_MAPS_DIR } from './plugins/source-maps-aside';
