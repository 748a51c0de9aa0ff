export {
  type ConversionResult,
  type ConvertInput,
  type ConvertOptions,
  convertDocument,
  closeDefaultOffices,
  defaultOffice,
  defaultRenderPool,
} from './convert.ts';
export { convertImage, type ImageHeader, readImageHeader } from './convert-image.ts';
export {
  convertVideo,
  makePreviewClip,
  makePreviewClipOf,
  type PlayableFile,
  type PreviewClip,
  type PreviewClipOptions,
  previewClipSettings,
  previewClipSize,
  probeVideo,
  type TranscodeReason,
  transcodeArgs,
  transcodeReasons,
  type VideoProbe,
  type VideoResult,
  type VideoTimings,
} from './convert-video.ts';
export { ConversionError, ConversionErrorCode, conversionErrorStatus, isConversionError } from './errors.ts';
export { extractDocxText, joinPageTexts } from './extract-text.ts';
export { type ConversionLimits, defaultEncode, defaultLimits, type EncodeSettings } from './limits.ts';
export { WarmOffice, type WarmOfficeOptions } from './office-server.ts';
export { canIsolateNetwork, type OfficePdf, officeToPdf } from './office-to-pdf.ts';
export { RenderPool, type RenderPoolOptions } from './pool.ts';
export { type OnPage, type PageSummary, type RenderedPage, renderPdf } from './render-pdf.ts';
export {
  type DocumentKind,
  type ImageFormat,
  imageFormatOf,
  isMediaFile,
  type SniffResult,
  sniffFile,
  type VideoContainer,
  videoContainerOf,
} from './sniff.ts';
export { guardZip } from './zip-guard.ts';
