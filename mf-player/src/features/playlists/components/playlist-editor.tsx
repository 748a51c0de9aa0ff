import { PLAYLIST_LOOPS_MAX, type Playlist } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardFooter,
  CardHeader,
  CardTitle,
  describeError,
  IconArrowDown,
  IconArrowUp,
  IconClose,
  Spinner,
  toast,
  useSessionExpired,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { playlistItemsQuery } from '../../../lib/playlist-items';
import { accessibleFilesQuery } from '../api/list-accessible-files';
import { useSavePlaylistItems } from '../api/save-playlist-items';
import { fileExtent } from '../model/file-extent';
import { loopsOfChosen, moveFile, removeFile, toggleFile } from '../model/editor';

/**
 * The editor: a checkbox list of files and the chosen ones in order (up, down, remove; a video's times in a row);
 * save or cancel.
 */
export function PlaylistEditor({ playlist, onClose }: { playlist: Playlist; onClose: () => void }) {
  const { t } = useTranslation();
  const sessionExpired = useSessionExpired();
  const files = useQuery(accessibleFilesQuery);
  const items = useQuery({ ...playlistItemsQuery(playlist.id), staleTime: 0 });
  const save = useSavePlaylistItems();
  const [order, setOrder] = useState<string[] | null>(null);
  /** a video's loops, by file id (absent: once) */
  const [loops, setLoops] = useState<Record<string, number>>({});

  useEffect(() => {
    if (items.data && order === null) {
      setOrder(items.data.map((i) => i.fileId));
      setLoops(Object.fromEntries(items.data.filter((i) => i.loops).map((i) => [i.fileId, i.loops as number])));
    }
  }, [items.data, order]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure
  useEffect(() => {
    if (!items.error || sessionExpired(items.error)) return;
    toast({
      title: t('playlist.toast.error'),
      description: describeError(items.error, t, t('playlist.toast.itemsFailed')),
      variant: 'destructive',
    });
  }, [items.error]);

  const isVideo = (fileId: string) =>
    (files.data?.find((f) => f.id === fileId)?.kind ?? items.data?.find((i) => i.fileId === fileId)?.file?.kind) ===
    'video';
  const titleOf = (fileId: string) =>
    files.data?.find((f) => f.id === fileId)?.title ??
    items.data?.find((i) => i.fileId === fileId)?.file?.title ??
    fileId;

  const onSave = () => {
    if (!order || order.length === 0) {
      toast({
        title: t('playlist.toast.error'),
        description: t('validation.playlistFilesRequired'),
        variant: 'destructive',
      });
      return;
    }
    save.mutate(
      {
        playlistId: playlist.id,
        fileIds: order,
        previousFileIds: items.data?.map((i) => i.fileId) ?? [],
        loops: loopsOfChosen(order, loops, isVideo),
      },
      {
        onSuccess: () => {
          toast({ title: t('playlist.toast.updated') });
          onClose();
        },
        onError: (error) => {
          if (sessionExpired(error)) return;
          toast({
            title: t('playlist.toast.error'),
            description: describeError(error, t, t('playlist.toast.updateFailed')),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const chosen = order ?? [];
  return (
    <Card data-testid="playlist-editor">
      <CardHeader>
        <CardTitle>{t('playlist.editorTitle', { name: playlist.name })}</CardTitle>
      </CardHeader>
      <CardContent>
        {files.isLoading || items.isLoading ? (
          <Spinner />
        ) : (
          <div className="pc-grid" style={{ gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))' }}>
            <fieldset className="pc-stack" style={{ border: 0, padding: 0 }}>
              <legend className="pc-label">{t('playlist.chooseFiles')}</legend>
              {(files.data ?? []).length === 0 ? <p className="pc-muted">{t('playlist.noFiles')}</p> : null}
              {(files.data ?? []).map((file) => (
                <label key={file.id} className="pc-row" data-testid="playlist-file-option">
                  <input
                    type="checkbox"
                    checked={chosen.includes(file.id)}
                    onChange={() => setOrder(toggleFile(chosen, file.id))}
                  />
                  <span>{file.title}</span>
                  <span className="pc-muted">{fileExtent(t, file)}</span>
                </label>
              ))}
            </fieldset>
            <ChosenOrder
              chosen={chosen}
              titleOf={titleOf}
              onChange={setOrder}
              isVideo={isVideo}
              loops={loops}
              onLoops={(fileId, times) => setLoops((now) => ({ ...now, [fileId]: times }))}
            />
          </div>
        )}
      </CardContent>
      <CardFooter className="pc-row">
        <Button data-testid="playlist-save" loading={save.isPending} disabled={order === null} onClick={onSave}>
          {t('playlist.save', { count: chosen.length })}
        </Button>
        <Button variant="outline" onClick={onClose}>
          {t('playlist.cancel')}
        </Button>
      </CardFooter>
    </Card>
  );
}

/** The chosen files in their playing order: each moved up, down, or removed. */
function ChosenOrder({
  chosen,
  titleOf,
  onChange,
  isVideo,
  loops,
  onLoops,
}: {
  chosen: string[];
  titleOf: (fileId: string) => string;
  onChange: (order: string[]) => void;
  isVideo: (fileId: string) => boolean;
  loops: Record<string, number>;
  onLoops: (fileId: string, times: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="pc-stack">
      <span className="pc-label">{t('playlist.order')}</span>
      {chosen.length === 0 ? <p className="pc-muted">{t('playlist.noneSelected')}</p> : null}
      <ol className="pc-stack" data-testid="playlist-order" style={{ paddingLeft: 20, margin: 0 }}>
        {chosen.map((fileId, i) => (
          <li key={fileId} data-testid="playlist-order-item" data-file-id={fileId}>
            <div className="pc-row">
              <span style={{ flex: 1 }}>{titleOf(fileId)}</span>
              {isVideo(fileId) ? (
                <label className="pc-row" title={t('playlist.loopsTimes', { count: loops[fileId] ?? 1 })}>
                  <span className="pc-muted">{t('playlist.loops')}</span>
                  <input
                    type="number"
                    className="pc-input"
                    style={{ width: 64 }}
                    min={1}
                    max={PLAYLIST_LOOPS_MAX}
                    step={1}
                    value={loops[fileId] ?? 1}
                    data-testid="playlist-loops"
                    aria-label={`${t('playlist.loops')}: ${titleOf(fileId)}`}
                    onChange={(e) => onLoops(fileId, e.currentTarget.valueAsNumber)}
                  />
                </label>
              ) : null}
              <Button
                size="sm"
                variant="ghost"
                aria-label={`${t('playlist.moveUp')}: ${titleOf(fileId)}`}
                disabled={i === 0}
                onClick={() => onChange(moveFile(chosen, i, -1))}
              >
                <IconArrowUp />
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`${t('playlist.moveDown')}: ${titleOf(fileId)}`}
                disabled={i === chosen.length - 1}
                onClick={() => onChange(moveFile(chosen, i, 1))}
              >
                <IconArrowDown />
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`${t('playlist.remove')}: ${titleOf(fileId)}`}
                onClick={() => onChange(removeFile(chosen, fileId))}
              >
                <IconClose />
              </Button>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
