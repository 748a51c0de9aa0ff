// The upload form's values and their check against the contracts' schema, apart from the dialog that shows them.
import { constants, type PublishPrice, UploadForm } from '@pagecast/contracts';
import type { TFunction } from 'i18next';
import type { UploadFileInput } from '../api/upload-file';
import { copyrightToSend, parseUploadDuration } from './file-rules';

export interface UploadValues {
  file: File | null;
  title: string;
  /** as typed: parsed (and defaulted) when sent */
  displayDuration: string;
  isPublished: boolean;
  publishPrice: PublishPrice | undefined;
  authorName: string;
  companyName: string;
  copyrightText: string;
}
export type UploadErrorField = 'file' | 'title' | 'displayDuration' | 'publishPrice' | 'authorName' | 'root';

export const emptyUploadForm = (): UploadValues => ({
  file: null,
  title: '',
  displayDuration: String(constants.defaultDisplayDuration),
  isPublished: false,
  publishPrice: undefined,
  authorName: '',
  companyName: '',
  copyrightText: '',
});

/** Error key of a schema issue path: the field it is shown under ('root': above the buttons). */
function fieldOf(path: readonly PropertyKey[]): UploadErrorField {
  const [first, second] = path;
  if (first === 'copyrightInfo') return second === 'authorName' || second === undefined ? 'authorName' : 'root';
  if (first === 'file' || first === 'title' || first === 'displayDuration' || first === 'publishPrice') return first;
  return 'root';
}

/** Checks one picked file alone (type and size): the message shows at once, before the form is sent. */
export function checkFile(file: File): string | undefined {
  const result = UploadForm.safeParse({ file, title: 'x' });
  if (result.success) return undefined;
  return result.error.issues.find((i) => i.path[0] === 'file')?.message;
}

/** The form's values as the upload's input, or the translated message of each field that is wrong. */
export function readUploadForm(
  values: UploadValues,
  t: TFunction,
):
  | { input: UploadFileInput; errors?: undefined }
  | { input?: undefined; errors: Partial<Record<UploadErrorField, string>> } {
  const { file } = values;
  const selling = values.isPublished;
  const parsed = UploadForm.safeParse({
    file: file ?? undefined,
    title: values.title,
    displayDuration: parseUploadDuration(values.displayDuration),
    isPublished: selling,
    publishPrice: selling ? values.publishPrice : undefined,
    // a seller's author name is required even when every copyright field is empty
    copyrightInfo: selling ? (copyrightToSend(values) ?? { authorName: '' }) : undefined,
  });
  if (!parsed.success || !file) {
    const next: Partial<Record<UploadErrorField, string>> = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = fieldOf(issue.path);
      next[field] ??= t(issue.message);
    }
    // 'ファイルとタイトルは必須です' is one message for both: shown once, above the buttons.
    const required = t('validation.fileAndTitleRequired');
    if (!file || next.file === required || next.title === required) {
      if (next.file === required) delete next.file;
      if (next.title === required) delete next.title;
      next.root = required;
    }
    return { errors: next };
  }
  const data = parsed.data;
  return {
    input: {
      file,
      title: data.title,
      displayDuration: data.displayDuration,
      ...(data.isPublished && data.publishPrice && data.copyrightInfo
        ? { sale: { publishPrice: data.publishPrice, copyrightInfo: data.copyrightInfo } }
        : {}),
    },
  };
}
