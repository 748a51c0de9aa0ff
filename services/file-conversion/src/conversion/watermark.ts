/**
 * The preview mark, as SVG: a diagonal, repeated, semi-transparent pattern over the whole picture with PREVIEW in
 * red across it. Shapes and text, so it shows even without fonts. Drawn by sharp on a page's preview image and, as
 * a transparent PNG, over a video's preview clip (ffmpeg's overlay: no font needed by ffmpeg).
 */
export function watermarkSvg(width: number, height: number): Buffer {
  const step = Math.max(80, Math.round(Math.min(width, height) / 3));
  const bands: string[] = [];
  for (let x = -height; x < width + height; x += step) {
    bands.push(
      `<line x1="${x}" y1="${height}" x2="${x + height}" y2="0" stroke="rgb(255,255,255)" stroke-opacity="0.45" stroke-width="${Math.round(step / 5)}"/>`,
    );
    bands.push(
      `<line x1="${x + step / 2}" y1="${height}" x2="${x + step / 2 + height}" y2="0" stroke="rgb(0,0,0)" stroke-opacity="0.25" stroke-width="${Math.round(step / 12)}"/>`,
    );
  }
  const fontSize = Math.round(width / 7);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${bands.join('')}
<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="bold"
 font-size="${fontSize}" fill="rgb(200,0,0)" fill-opacity="0.6" transform="rotate(-30 ${width / 2} ${height / 2})">PREVIEW</text></svg>`;
  return Buffer.from(svg);
}
