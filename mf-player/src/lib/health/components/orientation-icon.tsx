import type { ScreenRotation } from '@pagecast/contracts';

/**
 * A small picture of a screen as it hangs: a landscape or portrait frame with a stand on the side that is down, and
 * an arrow showing which way is up for the picture. Decorative: the words beside it say the same.
 */
export function OrientationIcon({ rotation, size = 28 }: { rotation: ScreenRotation; size?: number }) {
  const portrait = rotation === 90 || rotation === 270;
  const w = portrait ? 14 : 24;
  const h = portrait ? 24 : 14;
  const x = (28 - w) / 2;
  const y = (28 - h) / 2;
  return (
    <svg
      className="ph-orientation"
      width={size}
      height={size}
      viewBox="0 0 28 28"
      aria-hidden="true"
      data-rotation={rotation}
    >
      <rect x={x} y={y} width={w} height={h} rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      {/* the picture's top: a bar along the edge that the display turns up */}
      <g transform={`rotate(${rotation} 14 14)`}>
        <path d="M14 9 l-3 4 h6 z" fill="currentColor" />
      </g>
    </svg>
  );
}
