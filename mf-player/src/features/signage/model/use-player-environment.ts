import type { PlaylistItem } from '@pagecast/contracts';
import { constants } from '@pagecast/contracts';
import { rememberReturnPage, toast } from '@pagecast/ui';
import type { QueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useLocation, useNavigate } from '@pagecast/router';
import { useOfflineApp } from '../../../lib/use-offline-app';
import { precacheForOffline } from '../../../sw/register';
import { playerFilePath } from '../api/get-player-file';
import { playerPagesPath, playerPagesQuery } from '../api/get-player-pages';
import { playlistItemsPath } from '../../../lib/playlist-items';
import { controlsReveal, leaveTarget, revealsControls, swipeDirection } from './controls';
import type { PlayerSnapshot } from './load-item';
import { ignoreKeyTarget, type KeyAction, keyAction } from './playback';

// The player's dealings with the browser around it (fullscreen, keys, mouse, network, offline cache, login), each a
// hook of its own so that the page keeps to what is on screen and when it changes.

/** Files of a playlist whose pages are fetched ahead for the offline cache. */
const PRECACHE_FILES = 30;

/**
 * Fullscreen on the player's root (`rootRef`, the element to put on the whole screen); `onLeftByBrowser` runs when
 * the browser leaves it itself (ESC).
 */
export function useFullscreen(onLeftByBrowser: () => void) {
  const rootRef = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const exiting = useRef(false);
  const onLeft = useRef(onLeftByBrowser);
  onLeft.current = onLeftByBrowser;

  const enter = useCallback(() => {
    void rootRef.current?.requestFullscreen?.().catch(() => undefined);
  }, []);
  const exit = useCallback(() => {
    if (!document.fullscreenElement) return;
    exiting.current = true;
    void document.exitFullscreen().catch(() => undefined);
  }, []);

  useEffect(() => {
    const onChange = () => {
      const on = Boolean(document.fullscreenElement);
      setFullscreen(on);
      // the browser takes ESC itself in fullscreen: leaving fullscreen that way stops playback too
      if (!on && !exiting.current) onLeft.current();
      exiting.current = false;
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  return { rootRef, fullscreen, enter, exit };
}

/** The player's keys (spec point 6), not while typing, and Space on a button the keyboard focused presses it. */
export function usePlayerKeys(onAction: (action: KeyAction) => void) {
  const handler = useRef(onAction);
  handler.current = onAction;
  // Whether the focus came from the keyboard (Tab) rather than a click: Space then presses the focused button only.
  const keyboardFocus = useRef(false);
  useEffect(() => {
    const onPointer = () => {
      keyboardFocus.current = false;
    };
    const onTab = (e: KeyboardEvent) => {
      if (e.key === 'Tab') keyboardFocus.current = true;
    };
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('keydown', onTab, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('keydown', onTab, true);
    };
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target instanceof HTMLElement ? e.target : null;
      const target = el && {
        tagName: el.tagName,
        isContentEditable: el.isContentEditable,
        focusVisible: keyboardFocus.current,
      };
      if (e.altKey || e.ctrlKey || e.metaKey || ignoreKeyTarget(target, e.key)) return;
      const action = keyAction(e.key);
      if (!action) return;
      e.preventDefault();
      handler.current(action);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/** Whether the browser says it is online (the player shows an offline badge and keeps playing). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(typeof navigator === 'undefined' ? true : navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/**
 * While playing, the controls appear on a tap (touch screens have no keys and no mouse) or when the mouse moves, and
 * hide again a few seconds after the last one.
 */
export function useControlsVisible(playing: boolean): boolean {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!playing) return;
    const reveal = controlsReveal(setVisible);
    const onPointer = (e: MouseEvent) => {
      if (revealsControls({ type: e.type, pointerType: (e as PointerEvent).pointerType })) reveal.poke();
    };
    // capture: a tap on the stage or on a control counts, whatever handles it next
    window.addEventListener('click', onPointer, true);
    window.addEventListener('pointermove', onPointer, true);
    return () => {
      window.removeEventListener('click', onPointer, true);
      window.removeEventListener('pointermove', onPointer, true);
      reveal.stop();
    };
  }, [playing]);
  return visible;
}

/** The player's leave button: back inside the app, else to the page that opened the player, else the start page. */
export function useLeavePlayer(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const state = window.history.state as { idx?: unknown } | null;
    const target = leaveTarget({
      historyIndex: typeof state?.idx === 'number' ? state.idx : null,
      referrer: document.referrer,
      origin: window.location.origin,
      from: new URLSearchParams(window.location.search).get('from'),
      historyLength: window.history.length,
    });
    if (target === -1) navigate(-1);
    else if (target === 'close') {
      window.close();
      // a tab the browser will not let a page close stays: the start page then
      setTimeout(() => {
        if (!window.closed) navigate('/');
      }, 300);
    } else navigate(target);
  }, [navigate]);
}

/**
 * Swipes on a touch screen turn pages (left: next, right: previous), and the browser's own sideways gestures (back
 * and forward by overscroll) are off while the player is open, so a swipe never leaves it.
 */
export function useSwipePages(
  ref: RefObject<HTMLElement | null>,
  advance: (direction: 'next' | 'previous') => void,
  enabled: boolean,
) {
  const latest = useRef(advance);
  latest.current = advance;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const before = root.style.overscrollBehaviorX;
    root.style.overscrollBehaviorX = 'none';
    let start: { x: number; y: number; at: number } | null = null;
    const down = (e: PointerEvent) => {
      start = e.pointerType === 'mouse' ? null : { x: e.clientX, y: e.clientY, at: e.timeStamp };
    };
    const up = (e: PointerEvent) => {
      if (!start || !enabled) return;
      const direction = swipeDirection({
        dx: e.clientX - start.x,
        dy: e.clientY - start.y,
        ms: e.timeStamp - start.at,
      });
      start = null;
      if (direction) latest.current(direction);
    };
    const cancel = () => {
      start = null;
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', cancel);
    return () => {
      root.style.overscrollBehaviorX = before;
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', cancel);
    };
  }, [ref, enabled]);
}

/**
 * Offline first: the worker keeps every image of the file on screen, and of the playlist's files, before they are
 * due. `playlistIdNow` is read when the file on screen changes (the player may be ahead of the URL).
 */
export function useOfflinePrecache(
  qc: QueryClient,
  snapshot: PlayerSnapshot | null,
  playlistIdNow: () => string | null,
  items: PlaylistItem[] | undefined,
) {
  useOfflineApp();
  const playlistOf = useRef(playlistIdNow);
  playlistOf.current = playlistIdNow;
  useEffect(() => {
    if (!snapshot) return;
    const id = snapshot.file.id;
    const pid = playlistOf.current();
    void precacheForOffline([
      playerFilePath(id),
      playerPagesPath(id),
      ...(pid ? [playlistItemsPath(pid)] : []),
      ...snapshot.pages.map((p) => p.imagePath),
    ]);
  }, [snapshot]);
  const playlistFileKey = (items ?? [])
    .filter((i) => i.file)
    .map((i) => i.fileId)
    .join(',');
  useEffect(() => {
    if (!playlistFileKey) return;
    let cancelled = false;
    void (async () => {
      for (const id of playlistFileKey.split(',').slice(0, PRECACHE_FILES)) {
        if (cancelled) return;
        const pages = await qc.fetchQuery(playerPagesQuery(id)).catch(() => null);
        if (pages)
          await precacheForOffline([playerFilePath(id), playerPagesPath(id), ...pages.map((p) => p.imagePath)]);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [playlistFileKey, qc]);
}

/** 401 from any read: remember where we were, say so, log in after 1 s (spec point 6). */
export function useLoginRedirect(loginNeeded: boolean) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure, not again when the language or navigate changes
  useEffect(() => {
    if (!loginNeeded) return;
    rememberReturnPage(`${location.pathname}${location.search}`);
    toast({ title: t('toasts.loginRequired'), variant: 'destructive' });
    const timer = setTimeout(() => navigate('/login'), constants.redirectDelaysMs.playerLoginRequired);
    return () => clearTimeout(timer);
  }, [loginNeeded]);
}
