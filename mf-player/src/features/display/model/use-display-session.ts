// The display's life: no credential → show a pairing code and poll it (about once a second) until a member claims
// it; paired → read its screen, keep it for offline reloads; a 401 anywhere (revoked) → back to a new code.
import type { DeviceScreen, PairingStarted } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getDeviceScreen } from '../api/get-device-screen';
import { pollPairing } from '../api/poll-pairing';
import { startPairing } from '../api/start-pairing';
import { displayKeyStore, pendingKey, platformSubtle } from './display-keys';

const SCREEN_KEY = 'pagecast.screen.device';
const POLL_MS = 1000;

export type DisplayState =
  | { kind: 'starting' }
  | { kind: 'pairing'; pairing: PairingStarted | null; error: boolean }
  | { kind: 'paired'; screen: DeviceScreen };

const stored = (): DeviceScreen | null => {
  try {
    return JSON.parse(localStorage.getItem(SCREEN_KEY) ?? 'null') as DeviceScreen | null;
  } catch {
    return null;
  }
};
const store = (s: DeviceScreen | null) => {
  if (s) localStorage.setItem(SCREEN_KEY, JSON.stringify(s));
  else localStorage.removeItem(SCREEN_KEY);
};
export const isUnauthorized = (err: unknown) => err instanceof HttpError && err.status === 401;

export function useDisplaySession() {
  const [state, setState] = useState<DisplayState>({ kind: 'starting' });
  const stateRef = useRef(state);
  stateRef.current = state;

  const unpaired = useCallback(() => {
    store(null);
    setState({ kind: 'pairing', pairing: null, error: false });
  }, []);

  /** Reads the screen again (after a live change, at start); offline the stored copy is played. */
  const refresh = useCallback(async () => {
    try {
      const screen = await getDeviceScreen();
      store(screen);
      setState({ kind: 'paired', screen });
    } catch (err) {
      if (isUnauthorized(err)) return unpaired();
      const kept = stored();
      if (kept) setState((s) => (s.kind === 'paired' ? s : { kind: 'paired', screen: kept }));
      else if (stateRef.current.kind === 'starting') setState({ kind: 'pairing', pairing: null, error: true });
    }
  }, [unpaired]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // Pairing: ask for a code, poll it, ask again when it expires.
  const pairing = state.kind === 'pairing' ? state.pairing : undefined;
  const pairingError = state.kind === 'pairing' && state.error;
  useEffect(() => {
    if (state.kind !== 'pairing' || pairing) return;
    let stopped = false;
    const timer = setTimeout(
      async () => {
        try {
          const started = await startPairing();
          if (!stopped) setState({ kind: 'pairing', pairing: started, error: false });
        } catch {
          if (!stopped) setState({ kind: 'pairing', pairing: null, error: true }); // retried by this effect
        }
      },
      pairingError ? 5000 : 0,
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [state.kind, pairing, pairingError]);

  useEffect(() => {
    if (!pairing) return;
    let stopped = false;
    // signed proof of play: the key this display will sign with goes with each poll (none without WebCrypto)
    const publicKey = pendingKey(displayKeyStore(), platformSubtle()).then(
      (key) => key?.jwk,
      () => undefined,
    );
    const timer = setInterval(async () => {
      try {
        const status = await pollPairing(pairing.pairingId, pairing.pollSecret, await publicKey);
        if (stopped) return;
        if (status.status === 'paired') {
          stopped = true;
          await refresh();
        } else if (status.status === 'expired') setState({ kind: 'pairing', pairing: null, error: false });
      } catch {
        // offline for a moment: the next poll tries again
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pairing, refresh]);

  return { state, refresh, unpaired };
}
