/**
 * Python's slice rule, as zarrita selections follow it.
 *
 * @module
 */

/** A slice as selections hold it (`zarr.slice(…)`). */
export interface SliceLike {
  start: number | null;
  stop: number | null;
  step: number | null;
}

/**
 * Python's `slice.indices` for a step >= 1: the first index, the step and
 * the number of items; `undefined` for a step zarrita rejects.
 */
export function sliceIndices(
  slice: SliceLike | null,
  size: number,
): { start: number; step: number; length: number } | undefined {
  const step = slice?.step ?? 1;
  if (!Number.isInteger(step) || step < 1) return undefined;
  const clamp = (index: number | null | undefined, otherwise: number) => {
    if (index === null || index === undefined) return otherwise;
    return Math.min(size, Math.max(0, index < 0 ? index + size : index));
  };
  const start = clamp(slice?.start, 0);
  const stop = clamp(slice?.stop, size);
  return { start, step, length: Math.max(0, Math.ceil((stop - start) / step)) };
}
