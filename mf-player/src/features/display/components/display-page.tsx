import { contentOfInputs, deviceInputs, SCREEN_HEARTBEAT_SECONDS } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import qrcode from 'qrcode-generator';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { liveUrl } from '../../../lib/events-since';
import { useOfflineApp } from '../../../lib/use-offline-app';
import { sendHeartbeat } from '../api/send-heartbeat';
import { sendPlays } from '../api/send-plays';
import { createPlayLog } from '../model/play-log';
import { isUnauthorized, useDisplaySession } from '../model/use-display-session';
import { useDisplayPlayer } from '../model/use-display-player';
import './display.css';

/** Reported with each heartbeat; the Screens page shows it. */
export const DISPLAY_APP_VERSION = '1.0.0';
const FLUSH_MS = 10_000;

/** /screen: a display pairs by a code shown on it, then plays what its screen is given, on its own. */
export function DisplayPage() {
  const { state, refresh, unpaired } = useDisplaySession();
  useOfflineApp();
  if (state.kind === 'starting') return <main className="pc-display" aria-busy="true" />;
  if (state.kind === 'pairing') return <PairingCode code={state.pairing?.code ?? null} />;
  return <PairedDisplay key={state.screen.screenId} screen={state.screen} refresh={refresh} unpaired={unpaired} />;
}

function PairingCode({ code }: { code: string | null }) {
  const { t } = useTranslation();
  const link = code ? `${window.location.origin}/screens?code=${code}` : '';
  const qr = useMemo(() => {
    if (!link) return '';
    const q = qrcode(0, 'M');
    q.addData(link);
    q.make();
    return q.createDataURL(6, 2);
  }, [link]);
  return (
    <main className="pc-display pc-display--pairing">
      <h1>{t('screens.display.title')}</h1>
      <p>{t('screens.display.help')}</p>
      <p className="pc-display__code" data-testid="pairing-code" aria-live="polite">
        {code ?? '······'}
      </p>
      {qr ? <img className="pc-display__qr" src={qr} alt={t('screens.display.qr')} width={220} height={220} /> : null}
    </main>
  );
}

function PairedDisplay({
  screen,
  refresh,
  unpaired,
}: {
  screen: Parameters<typeof useDisplayPlayer>[0];
  refresh: () => Promise<void>;
  unpaired: () => void;
}) {
  const { t } = useTranslation();
  const log = useMemo(() => createPlayLog(window.localStorage), []);
  const [version, setVersion] = useState(0);
  const { playing, because, slide, watched } = useDisplayPlayer(screen, { version, onPlayed: (r) => log.add(r) });
  const nowPlaying = useRef<{ fileId: string | null; page: number | null } | null>(null);
  nowPlaying.current = slide ? { fileId: slide.fileId, page: slide.page } : null;

  // Heartbeat; a 401 means the screen was unpaired.
  const beat = useCallback(
    () =>
      sendHeartbeat({
        appVersion: DISPLAY_APP_VERSION,
        screenSize: { width: window.screen.width, height: window.screen.height },
        nowPlaying: nowPlaying.current,
      }).catch((err) => {
        if (isUnauthorized(err)) unpaired();
      }),
    [unpaired],
  );
  useEffect(() => {
    void beat();
    const timer = setInterval(beat, (screen.heartbeatSeconds || SCREEN_HEARTBEAT_SECONDS) * 1000);
    return () => clearInterval(timer);
  }, [screen.heartbeatSeconds, beat]);
  // A new file on the wall is told at once, not at the next beat: the Screens page shows what the display shows
  // (the first beat goes out before the first page is loaded, and said nothing plays for up to a beat).
  const playingFile = slide?.fileId ?? null;
  const toldFile = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    const told = toldFile.current;
    toldFile.current = playingFile;
    if (told !== undefined && told !== playingFile) void beat();
  }, [playingFile, beat]);

  // Proof of play: sent in batches; kept while offline; a refused batch is dropped (it would be refused again), and
  // so is every record of an answered batch: counted, already counted, or refused one by one (refusedByReason).
  useEffect(() => {
    let sending = false;
    const flush = async () => {
      if (sending) return;
      sending = true;
      try {
        for (let batch = log.batch(); batch.length > 0; batch = log.batch()) {
          try {
            await sendPlays(batch);
          } catch (err) {
            if (err instanceof HttpError && err.status === 400) log.remove(batch.map((r) => r.id));
            else if (isUnauthorized(err)) return unpaired();
            else return;
            continue;
          }
          log.remove(batch.map((r) => r.id));
        }
      } finally {
        sending = false;
      }
    };
    const timer = setInterval(flush, FLUSH_MS);
    window.addEventListener('online', flush);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', flush);
    };
  }, [log, unpaired]);

  // Live: the screen's own changes, and the playlists and files it plays; a closed stream may mean revoked.
  const files = [...new Set(watched.slides.map((s) => s.fileId))].slice(0, 40);
  // (its own assignment's, its groups' and running takeovers': what the resolver may pick)
  const playlists = useMemo(() => contentOfInputs(deviceInputs(screen)).playlistIds.slice(0, 10), [screen]);
  const query = [
    ...playlists.map((id) => `playlist=${encodeURIComponent(id)}`),
    ...files.map((id) => `file=${encodeURIComponent(id)}`),
  ].join('&');
  useEffect(() => {
    // since: a screen that starts (or swaps what it watches) long after the last change need not refetch it all
    const source = new EventSource(liveUrl(`/api/events${query ? `?${query}` : ''}`));
    source.addEventListener('screens.screen.changed.v1', () => void refresh());
    // Back after a cut (or told to read everything again): what the screen is given may have changed meanwhile, and
    // proof of play counts only what it was given (a display still playing the old content is refused after a minute).
    source.addEventListener('resync', () => void refresh());
    const online = () => void refresh();
    window.addEventListener('online', online);
    const reload = () => setVersion((v) => v + 1);
    for (const type of [
      'files.playlist.saved.v1',
      'files.file.updated.v1',
      'files.file.deleted.v1',
      'files.page.ready.v1',
      'resync',
    ])
      source.addEventListener(type, reload);
    // The browser reconnects by itself; a refusal (revoked) closes the source: ask the server what happened.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) void refresh();
    };
    return () => {
      source.close();
      window.removeEventListener('online', online);
    };
  }, [query, refresh]);

  // A message takeover: the member's own words (not translated), full-screen, ahead of every schedule.
  if (playing.kind === 'message') {
    return (
      <main
        className="pc-display pc-display--message"
        data-testid="display-playing"
        data-screen={screen.screenId}
        data-takeover={because.rule === 'takeover' ? because.takeoverId : undefined}
      >
        <div className="pc-display__message" data-testid="display-message" role="alert">
          <h1 className="pc-display__message-title">{playing.title}</h1>
          {playing.body ? <p className="pc-display__message-body">{playing.body}</p> : null}
        </div>
      </main>
    );
  }

  return (
    <main
      className="pc-display"
      data-testid="display-playing"
      data-screen={screen.screenId}
      data-takeover={because.rule === 'takeover' ? because.takeoverId : undefined}
    >
      {slide ? (
        <img
          className="pc-display__page"
          src={slide.imagePath}
          alt={t('screens.display.pageAlt', { page: slide.page + 1 })}
          data-file={slide.fileId}
          data-page={slide.page}
        />
      ) : (
        <p className="pc-display__idle" data-testid="display-idle">
          {screen.name}
        </p>
      )}
    </main>
  );
}
