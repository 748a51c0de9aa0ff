import type { ConversionErrorCode } from './errors.ts';

/** How each page is drawn and encoded; shared by the pipeline and the bench baselines. */
export interface PageRenderSettings {
  maxLongSide: number;
  maxAspectRatio: number;
  webpQuality: number;
  webpEffort: number;
  thumbnailWidth: number;
}

export type ToWorker =
  | { type: 'open'; jobId: number; path: string; maxImagePixels: number }
  | { type: 'render'; jobId: number; pageNumber: number; settings: PageRenderSettings }
  | { type: 'close'; jobId: number };

export interface WorkerPage {
  pageNumber: number;
  width: number;
  height: number;
  webp: Uint8Array;
  thumbnail: Uint8Array;
  thumbnailWidth: number;
  thumbnailHeight: number;
  text: string;
}

export type FromWorker =
  | { type: 'opened'; jobId: number; numPages: number }
  | { type: 'page'; jobId: number; page: WorkerPage }
  | { type: 'error'; jobId: number; code: ConversionErrorCode; message: string }
  | { type: 'closed'; jobId: number };
