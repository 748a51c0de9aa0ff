// Types of media-corpus.mjs for the TypeScript tests that make the corpus.
export interface MediaCorpusEntry {
  what: string;
  /** 'convert', or the error code of the refusal */
  expect: string;
  /** size as shown, EXIF orientation applied (converted files) */
  shown?: { width: number; height: number };
}
export declare const mediaCorpus: Record<string, MediaCorpusEntry>;
export declare function pixelBombPng(width?: number, height?: number): Buffer;
export declare function makeMediaCorpus(dir: string): Promise<Record<string, string>>;
