// Run-time composition (ARCHITECTURE principle 6): no remote URL is built in; /remotes.json says where each
// remote's mf-manifest.json is. A remote that cannot be loaded yields a fallback module instead of an exception
// that would take the host down (module-federation/core#3877); the shell then shows its fallback area.
import { init, loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { type RemoteEntry, type RemoteName, toRemoteEntries } from './remote-list';

/** What every remote's './routes' module exports by default: its route components by name. */
export type RemoteRoutes = Record<string, ComponentType>;

const UNAVAILABLE = Symbol.for('pagecast.remote-unavailable');

interface FallbackModule {
  [UNAVAILABLE]: true;
  id: string;
  error: unknown;
  default: RemoteRoutes;
}

export class RemoteUnavailableError extends Error {
  readonly remote: string;
  constructor(remote: string, cause?: unknown) {
    super(`remote ${remote} could not be loaded`, { cause });
    this.name = 'RemoteUnavailableError';
    this.remote = remote;
  }
}

export function isFallbackModule(value: unknown): value is FallbackModule {
  return Boolean(value && typeof value === 'object' && (value as Record<symbol, unknown>)[UNAVAILABLE]);
}

/** The runtime plugin: when loading a remote module fails for any reason, answer a marked fallback module. */
export function fallbackPlugin() {
  return {
    name: 'pagecast-remote-fallback',
    errorLoadRemote(args: { id: string; error: unknown; lifecycle: string }) {
      // 'afterResolve' is the manifest fetch: give nothing back so the failure reaches 'onLoad' below.
      if (args.lifecycle !== 'onLoad') return undefined;
      console.warn(`[federation] ${args.id} is unavailable`, args.error);
      const fallback: FallbackModule = { [UNAVAILABLE]: true, id: args.id, error: args.error, default: {} };
      return fallback;
    },
  };
}

let registered: Promise<Map<string, RemoteEntry>> | undefined;
let started = false;

async function fetchAndRegister(): Promise<Map<string, RemoteEntry>> {
  const res = await fetch('/remotes.json', { credentials: 'same-origin', cache: 'no-cache' });
  if (!res.ok) throw new Error(`/remotes.json: ${res.status}`);
  const entries = toRemoteEntries(await res.json(), window.location.href);
  registerRemotes(entries, { force: true });
  return new Map(entries.map((e) => [e.name, e]));
}

/** Registers the remotes /remotes.json lists; a failed read is tried again by the next caller. */
function ensureRegistered(): Promise<Map<string, RemoteEntry>> {
  registered ??= fetchAndRegister().catch((error: unknown) => {
    registered = undefined;
    throw error;
  });
  return registered;
}

export function startFederation() {
  if (started) return;
  started = true;
  init({ name: 'shell', remotes: [], plugins: [fallbackPlugin()] });
  ensureRegistered().catch((error: unknown) => console.warn('[federation] /remotes.json', error));
}

const routesCache = new Map<string, Promise<RemoteRoutes>>();

async function load(name: RemoteName): Promise<RemoteRoutes> {
  try {
    await ensureRegistered();
  } catch (error) {
    throw new RemoteUnavailableError(name, error);
  }
  const mod = await loadRemote<{ default: RemoteRoutes }>(`${name}/routes`);
  if (!mod || isFallbackModule(mod))
    throw new RemoteUnavailableError(name, isFallbackModule(mod) ? mod.error : undefined);
  return mod.default;
}

/** The remote's route components; one promise per remote so React's use() can suspend on it. */
export function loadRemoteRoutes(name: RemoteName): Promise<RemoteRoutes> {
  let promise = routesCache.get(name);
  if (!promise) {
    promise = load(name);
    routesCache.set(name, promise);
  }
  return promise;
}

/** Forget a failed remote so the next render loads it again (the Retry button). */
export async function resetRemote(name: RemoteName): Promise<void> {
  routesCache.delete(name);
  try {
    const entries = await ensureRegistered();
    const entry = entries.get(name);
    // force: the runtime drops its cached manifest and container for this remote
    if (entry) registerRemotes([{ ...entry }], { force: true });
  } catch {
    // /remotes.json still unreadable: the next load reports the remote as unavailable again
  }
}
