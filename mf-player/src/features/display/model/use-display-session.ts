// The display's life: no credential → show a pairing code and poll it (about once a second) until a member claims
// it; paired → read its screen, keep it for offline reloads; a 401 anywhere (revoked) → back to a new code.
// Every request is tried again until it answers (retry.ts): a display never stays on a dead screen.
//
// Whether it is paired is known without asking: the copy of its screen kept in localStorage (written once the
// server gave it, removed at a 401) is the marker. No copy → it asks for a pairing code at once, so an unpaired
// display makes no failing request (the device cookie is httpOnly and cannot be looked at). A display whose storage
// was wiped while its cookie lives on shows a code; pairing it again replaces the old credential.
import type { DeviceScreen, PairingStarted } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { rememberRead } from '../../../lib/conditional-fetch';
import { keepGivenRead } from '../../../sw/register';
import { deviceScreenPath, getDeviceScreen } from '../api/get-device-screen';
import { pollPairing } from '../api/poll-pairing';
import { startPairing } from '../api/start-pairing';
import { displayKeyStore, pendingKey, platformSubtle } from './display-keys';
import { retryDelay, retrying, type WaitingBoard } from './retry';

const SCREEN_KEY = 'pagecast.screen.device';
const POLL_MS = 1000;

export type DisplayState =
  | { kind: 'starting' }
  | { kind: 'pairing'; pairing: PairingStarted | null }
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
const isNotFound = (err: unknown) => err instanceof HttpError && err.status === 404;

export function useDisplaySession(board: WaitingBoard) {
  // paired before (a kept copy): read the screen first; never paired: straight to a code
  const [state, setState] = useState<DisplayState>(() =>
    stored() ? { kind: 'starting' } : { kind: 'pairing', pairing: null },
  );
  const reading = useRef<AbortController | null>(null);

  const unpaired = useCallback(() => {
    reading.current?.abort();
    board.done('screen');
    store(null);
    setState({ kind: 'pairing', pairing: null });
  }, [board]);

  /**
   * Reads the screen again (after a live change, at start, once paired), until it answers; a newer read replaces
   * one still trying. Offline, the kept copy plays meanwhile.
   */
  const refresh = useCallback(async () => {
    reading.current?.abort();
    const ctl = new AbortController();
    reading.current = ctl;
    try {
      const screen = await retrying('screen', () => getDeviceScreen(ctl.signal), {
        board,
        signal: ctl.signal,
        permanent: isUnauthorized,
        onFailure: () => {
          const kept = stored();
          if (kept) setState((s) => (s.kind === 'paired' ? s : { kind: 'paired', screen: kept }));
        },
      });
      store(screen);
      setState({ kind: 'paired', screen });
    } catch (err) {
      if (isUnauthorized(err)) unpaired();
      // else aborted: a newer read (or the end of the page) took over
    }
  }, [board, unpaired]);

  /**
   * The screen as the socket gave it with its version (the text GET /api/screens/device/me answers with that ETag):
   * taken as that read's answer, replacing one still trying. False when it is not a manifest (then it is read).
   */
  const given = useCallback(
    (version: string, text: string): boolean => {
      let screen: DeviceScreen;
      try {
        screen = JSON.parse(text) as DeviceScreen;
      } catch {
        return false;
      }
      if (!screen || typeof screen !== 'object') return false;
      reading.current?.abort();
      board.done('screen');
      rememberRead(deviceScreenPath, version, screen);
      // for a reload during a network cut, as the worker keeps a read's answer (else it would give the one before)
      void keepGivenRead(deviceScreenPath, text, version).catch(() => undefined);
      store(screen);
      setState({ kind: 'paired', screen });
      return true;
    },
    [board],
  );

  useEffect(() => {
    if (stored()) void refresh();
    return () => {
      reading.current?.abort();
      board.done('screen');
    };
  }, [refresh, board]);

  // Pairing: ask for a code (until one comes), poll it, ask again when it expires.
  const pairing = state.kind === 'pairing' ? state.pairing : undefined;
  useEffect(() => {
    if (state.kind !== 'pairing' || pairing) return;
    const ctl = new AbortController();
    retrying('pairing-code', startPairing, { board, signal: ctl.signal }).then(
      (started) => setState({ kind: 'pairing', pairing: started }),
      () => undefined, // aborted: this display left the pairing screen
    );
    return () => {
      ctl.abort();
      board.done('pairing-code');
    };
  }, [state.kind, pairing, board]);

  useEffect(() => {
    if (!pairing) return;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // signed proof of play: the key this display will sign with goes with each poll (none without WebCrypto)
    const publicKey = pendingKey(displayKeyStore(), platformSubtle()).then(
      (key) => key?.jwk,
      () => undefined,
    );
    const poll = async () => {
      try {
        const status = await pollPairing(pairing.pairingId, pairing.pollSecret, await publicKey);
        if (stopped) return;
        failures = 0;
        board.done('pairing-status');
        if (status.status === 'paired') {
          stopped = true;
          setState({ kind: 'starting' });
          await refresh();
        } else if (status.status === 'expired') setState({ kind: 'pairing', pairing: null });
        else timer = setTimeout(poll, POLL_MS);
      } catch (err) {
        if (stopped) return;
        // unknown to the server (its pairing is gone): a new code
        if (isNotFound(err)) return setState({ kind: 'pairing', pairing: null });
        failures += 1;
        const ms = Math.max(POLL_MS, retryDelay(failures));
        board.wait('pairing-status', Date.now() + ms);
        timer = setTimeout(poll, ms);
      }
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      board.done('pairing-status');
    };
  }, [pairing, refresh, board]);

  return { state, refresh, given, unpaired };
}
