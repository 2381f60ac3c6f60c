/**
 * The demo page's colour scale: viridis, from dark blue-violet (the minimum)
 * to yellow (the maximum), and the pixels of a 2-D field painted with it.
 *
 * @module
 */

/** Viridis at nine evenly spaced points. */
const STOPS: readonly (readonly [number, number, number])[] = [
  [0x44, 0x01, 0x54],
  [0x47, 0x2d, 0x7b],
  [0x3b, 0x52, 0x8b],
  [0x2c, 0x72, 0x8e],
  [0x21, 0x91, 0x8c],
  [0x28, 0xae, 0x80],
  [0x5e, 0xc9, 0x62],
  [0xad, 0xdc, 0x30],
  [0xfd, 0xe7, 0x25],
];

/**
 * The colour at `t` in [0, 1] (clamped), as `[r, g, b]`.
 *
 * @example
 * ```ts
 * import { colourAt } from "./colour_scale.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(colourAt(0), [0x44, 0x01, 0x54]);
 * deepStrictEqual(colourAt(1), [0xfd, 0xe7, 0x25]);
 * deepStrictEqual(colourAt(2), colourAt(1));
 * ```
 *
 * @param t where on the scale
 */
export function colourAt(t: number): [number, number, number] {
  const at = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
  const i = Math.min(Math.floor(at), STOPS.length - 2);
  const f = at - i;
  const [a, b] = [STOPS[i], STOPS[i + 1]];
  return [0, 1, 2].map((c) => Math.round(a[c] + (b[c] - a[c]) * f)) as [
    number,
    number,
    number,
  ];
}

/**
 * The smallest and largest finite value; both `NaN` when there is none.
 *
 * @example
 * ```ts
 * import { valueRange } from "./colour_scale.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(valueRange([3, NaN, -1, 2]), { min: -1, max: 3 });
 * deepStrictEqual(valueRange([NaN]), { min: NaN, max: NaN });
 * ```
 *
 * @param values the field
 */
export function valueRange(
  values: ArrayLike<number>,
): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min > max ? { min: NaN, max: NaN } : { min, max };
}

/**
 * RGBA pixels of `values` on the scale from `min` to `max`; values that are
 * not finite are transparent.
 *
 * @example
 * ```ts
 * import { paint } from "./colour_scale.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const pixels = paint([0, 10, NaN], 0, 10);
 * deepStrictEqual([...pixels], [0x44, 0x01, 0x54, 255, 0xfd, 0xe7, 0x25, 255, 0, 0, 0, 0]);
 * ```
 *
 * @param values the field, row by row
 * @param min the value drawn darkest
 * @param max the value drawn brightest
 */
export function paint(
  values: ArrayLike<number>,
  min: number,
  max: number,
): Uint8ClampedArray<ArrayBuffer> {
  const pixels = new Uint8ClampedArray(values.length * 4);
  const span = max > min ? max - min : 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    pixels.set([...colourAt((v - min) / span), 255], i * 4);
  }
  return pixels;
}
