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
export interface VideoCorpusEntry {
  what: string;
  /** 'kept', 'transcoded', or the error code of the refusal */
  expect: string;
  /** why it is transcoded (the engine's codes) */
  reasons?: string[];
  /** size of the stored video */
  shown?: { width: number; height: number };
  /** the stored video's codec */
  codec?: string;
}
export declare const videoCorpus: Record<string, VideoCorpusEntry>;
export declare function makeVideoCorpus(dir: string, opts?: { segmentUrl?: string }): Record<string, string>;
