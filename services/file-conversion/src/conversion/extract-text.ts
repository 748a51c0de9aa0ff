import mammoth from 'mammoth';
import type { PageSummary } from './render-pdf.ts';

/** Word's own text (mammoth raw text): closer to what the author typed than the PDF LibreOffice lays out. */
export async function extractDocxText(path: string): Promise<string> {
  const { value } = await mammoth.extractRawText({ path });
  return value.trim();
}

/** The document's text from its rendered pages (MuPDF structured text, gathered while rendering), in page order. */
export function joinPageTexts(pages: Pick<PageSummary, 'pageNumber' | 'text'>[]): string {
  return [...pages]
    .sort((a, b) => a.pageNumber - b.pageNumber)
    .map((p) => p.text)
    .filter((t) => t.length > 0)
    .join('\n\n');
}
