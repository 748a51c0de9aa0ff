// POST /api/files/upload (multipart, the file in field `pdf`) through XMLHttpRequest: fetch cannot report the
// bytes sent, and the dialog shows a real progress bar.
import { constants, type CopyrightInfo, type FileSummary, type PublishPrice } from '@pagecast/contracts';
import { HttpError, workspaceHeaders } from '@pagecast/ui';

export interface UploadFileInput {
  file: File;
  title: string;
  displayDuration: number;
  /** only when selling */
  sale?: { publishPrice: PublishPrice; copyrightInfo: CopyrightInfo };
}

export interface UploadProgress {
  sent: number;
  total: number;
}

export function uploadFormData(input: UploadFileInput): FormData {
  const form = new FormData();
  form.append('title', input.title);
  form.append('displayDuration', String(input.displayDuration));
  if (input.sale) {
    form.append('isPublished', 'true');
    form.append('publishPrice', String(input.sale.publishPrice));
    form.append('copyrightInfo', JSON.stringify(input.sale.copyrightInfo));
  }
  // the file last: the server reads the text fields before the bytes arrive
  form.append(constants.upload.fileField, input.file, input.file.name);
  return form;
}

export function uploadFile(
  input: UploadFileInput,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<FileSummary> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/files/upload');
    xhr.withCredentials = true;
    // the workspace the page acts in (a host whose @pagecast/ui predates it: the person's own)
    const named = typeof workspaceHeaders === 'function' ? workspaceHeaders() : {};
    for (const [name, value] of Object.entries(named)) xhr.setRequestHeader(name, value);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ sent: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as FileSummary);
        } catch (err) {
          reject(err);
        }
        return;
      }
      reject(new HttpError(xhr.status, xhr.statusText, xhr.responseText));
    };
    xhr.onerror = () => reject(new Error('network error'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(uploadFormData(input));
  });
}
