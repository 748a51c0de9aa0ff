import { previewSizes } from '@pagecast/contracts';
import sharp from 'sharp';
import { watermarkSvg } from '../conversion/watermark.ts';

/**
 * A page image made small for the marketplace: 'thumb' (a card, 240 px) or 'page' (480 px with a watermark).
 * Never larger than the source, never the source itself.
 */
export async function renderPreview(source: Buffer, size: 'thumb' | 'page'): Promise<Buffer> {
  const box = previewSizes[size];
  const { data, info } = await sharp(source)
    .resize({ width: box, height: box, fit: 'inside', withoutEnlargement: true })
    .toBuffer({ resolveWithObject: true });
  const image = sharp(data);
  if (size === 'page') image.composite([{ input: watermarkSvg(info.width, info.height), top: 0, left: 0 }]);
  return image.webp({ quality: size === 'page' ? 50 : 60 }).toBuffer();
}
