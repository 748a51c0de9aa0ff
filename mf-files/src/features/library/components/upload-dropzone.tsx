import { uploadAccept } from '@pagecast/contracts';
import { Button } from '@pagecast/ui';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';

// documents and photos by name; the server decides the type from the bytes
const ACCEPT = uploadAccept;

/** Drag and drop or pick one file; the picked file's name and size are shown under the drop target. */
export function UploadDropzone({ file, onPick }: { file: File | null; onPick: (file: File | undefined) => void }) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    onPick(e.dataTransfer.files[0]);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the button inside is the keyboard path
    <div
      className={`pf-dropzone${dragging ? ' pf-dropzone--active' : ''}`}
      data-testid="upload-dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <p>{dragging ? t('files.upload.dropzoneActive') : t('files.upload.dropzone')}</p>
      <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()}>
        {t('files.upload.browse')}
      </Button>
      <input
        ref={inputRef}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="upload-input"
        aria-label={t('files.upload.fileLabel')}
        onChange={(e) => {
          onPick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <p className="pc-muted pf-small">{t('files.upload.accepted')}</p>
      {file ? (
        <p className="pf-selected" data-testid="upload-selected">
          {t('files.upload.selectedFile', { name: file.name, size: (file.size / 1024).toFixed(0) })}
        </p>
      ) : null}
    </div>
  );
}
