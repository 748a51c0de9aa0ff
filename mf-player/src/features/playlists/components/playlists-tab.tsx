import type { Playlist } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  describeError,
  Input,
  Label,
  Spinner,
  toast,
  useSessionExpired,
  inWorkspace,
} from '@pagecast/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useCreatePlaylist } from '../api/create-playlist';
import { useDeletePlaylist } from '../api/delete-playlist';
import { playlistItemsQuery } from '../../../lib/playlist-items';
import { playlistsQuery } from '../../../lib/playlists';
import { useMay } from '../../../lib/use-may';
import { firstPlayable, validPlaylistName } from '../model/editor';
import { PlaylistEditor } from './playlist-editor';

// Whether the role in the workspace the page acts in may change playlists (a viewer, a publisher or an emergency
// broadcaster sees no create, edit or delete; the server refuses anyway).
const useMayEdit = () => useMay('playlists.write');

/** Tab 'playlists': create form, the list (play, edit, delete) and the editor. */
export function PlaylistsTab() {
  const { t } = useTranslation();
  const mayEdit = useMayEdit();
  const qc = useQueryClient();
  const sessionExpired = useSessionExpired();
  const playlists = useQuery(playlistsQuery);
  const remove = useDeletePlaylist();
  const [editing, setEditing] = useState<Playlist | null>(null);
  const [deleting, setDeleting] = useState<Playlist | null>(null);

  const failed = (error: unknown, fallbackKey: string) => {
    if (sessionExpired(error)) return;
    toast({
      title: t('playlist.toast.error'),
      description: describeError(error, t, t(fallbackKey)),
      variant: 'destructive',
    });
  };

  const onPlay = async (playlist: Playlist) => {
    try {
      const items = await qc.fetchQuery({ ...playlistItemsQuery(playlist.id), staleTime: 0 });
      const first = firstPlayable(items);
      if (!first) {
        toast({ title: t('playlist.toast.empty'), description: t('playlist.toast.emptyDescription') });
        return;
      }
      const search = new URLSearchParams({ playlist: playlist.id, index: String(first.index), autoplay: 'true' });
      window.open(
        inWorkspace(`/signage/${encodeURIComponent(first.fileId)}?${search.toString()}`),
        '_blank',
        'noopener',
      );
    } catch (error) {
      failed(error, 'playlist.toast.playFailed');
    }
  };

  const onDelete = () => {
    const target = deleting;
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => {
        toast({ title: t('playlist.toast.deleted') });
        setDeleting(null);
        if (editing?.id === target.id) setEditing(null);
      },
      onError: (error) => {
        setDeleting(null);
        failed(error, 'playlist.toast.deleteFailed');
      },
    });
  };

  return (
    <div className="pc-stack">
      {mayEdit ? (
        <CreatePlaylist onCreated={setEditing} onFailed={(error) => failed(error, 'playlist.toast.createFailed')} />
      ) : null}

      {editing && mayEdit ? (
        <PlaylistEditor key={editing.id} playlist={editing} onClose={() => setEditing(null)} />
      ) : null}

      {playlists.isLoading ? <Spinner /> : null}
      {playlists.error ? <p className="pc-muted">{t('playlist.loadFailed')}</p> : null}
      {playlists.data && playlists.data.length === 0 ? <p className="pc-muted">{t('playlist.noPlaylists')}</p> : null}
      <div className="pc-stack" data-testid="playlist-list">
        {(playlists.data ?? []).map((playlist) => (
          <PlaylistRow
            key={playlist.id}
            playlist={playlist}
            onPlay={() => void onPlay(playlist)}
            onEdit={mayEdit ? () => setEditing(playlist) : undefined}
            onDelete={mayEdit ? () => setDeleting(playlist) : undefined}
          />
        ))}
      </div>

      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={t('playlist.deleteTitle')}
        description={t('playlist.confirmDelete')}
        size="sm"
        footer={
          <>
            <Button variant="outline" onClick={() => setDeleting(null)}>
              {t('playlist.cancel')}
            </Button>
            <Button
              variant="destructive"
              loading={remove.isPending}
              data-testid="playlist-delete-confirm"
              onClick={onDelete}
            >
              {t('playlist.deleteConfirmButton')}
            </Button>
          </>
        }
      />
    </div>
  );
}

/** A new playlist: its name, then it opens in the editor. */
function CreatePlaylist({
  onCreated,
  onFailed,
}: {
  onCreated: (playlist: Playlist) => void;
  onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const create = useCreatePlaylist();
  const nameId = useId();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    const valid = validPlaylistName(name);
    if (!valid) {
      setNameError(t('validation.playlistNameRequired'));
      return;
    }
    setNameError(null);
    create.mutate(
      { name: valid, description: null },
      {
        onSuccess: (playlist) => {
          toast({ title: t('playlist.toast.created'), description: t('playlist.toast.createdDescription') });
          setName('');
          setCreating(false);
          onCreated(playlist);
        },
        onError: onFailed,
      },
    );
  };

  return creating ? (
    <Card>
      <CardContent>
        <form className="pc-row" onSubmit={onCreate} data-testid="playlist-create-form" noValidate>
          <Label htmlFor={nameId}>{t('playlist.nameLabel')}</Label>
          <Input
            id={nameId}
            value={name}
            placeholder={t('playlist.namePlaceholder')}
            maxLength={100}
            aria-invalid={nameError ? true : undefined}
            onChange={(e) => setName(e.target.value)}
            autoFocus
          />
          <Button type="submit" loading={create.isPending} data-testid="playlist-create">
            {t('playlist.create')}
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              setCreating(false);
              setName('');
              setNameError(null);
            }}
          >
            {t('playlist.cancel')}
          </Button>
        </form>
        {nameError ? (
          <p className="pc-field-error" role="alert">
            {nameError}
          </p>
        ) : null}
      </CardContent>
    </Card>
  ) : (
    <div>
      <Button data-testid="playlist-new" onClick={() => setCreating(true)}>
        {t('playlist.newPlaylist')}
      </Button>
    </div>
  );
}

/** One playlist: its name and size; play it (in a new tab), edit it, delete it (those two only when allowed). */
function PlaylistRow({
  playlist,
  onPlay,
  onEdit,
  onDelete,
}: {
  playlist: Playlist;
  onPlay: () => void;
  onEdit?: (() => void) | undefined;
  onDelete?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Card data-testid="playlist-row" data-playlist-id={playlist.id}>
      <CardHeader className="pc-row">
        <div style={{ flex: 1 }}>
          <CardTitle>{playlist.name}</CardTitle>
          <CardDescription>{t('playlist.itemCount', { count: playlist.itemCount })}</CardDescription>
        </div>
        <Button size="sm" onClick={onPlay}>
          {t('playlist.play')}
        </Button>
        {onEdit ? (
          <Button size="sm" variant="secondary" onClick={onEdit} data-testid="playlist-edit">
            {t('playlist.edit')}
          </Button>
        ) : null}
        {onDelete ? (
          <Button size="sm" variant="destructive" onClick={onDelete} data-testid="playlist-delete">
            {t('playlist.delete')}
          </Button>
        ) : null}
      </CardHeader>
    </Card>
  );
}
