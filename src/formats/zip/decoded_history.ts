/**
 * The last bytes a member's decoder gave, kept so that a read starting a
 * little behind where the last one stopped (the next window of `lines`
 * starts a byte before it, `tail` steps back from the end) is served
 * without decoding the member from its start again.
 *
 * @module
 */

/** Decoded bytes kept per cursor. */
const KEPT = 4 * 1024 * 1024;

/** The last up to 4 MiB of a member's decoded bytes before offset `end`. */
export class DecodedHistory {
  #ring: Uint8Array;
  /** The member offset after the last byte kept. */
  end = 0;

  /** @param size the member's size: no more than it is kept */
  constructor(size: number) {
    this.#ring = new Uint8Array(Math.max(1, Math.min(KEPT, size)));
  }

  /** The member offset of the first byte kept. */
  get start(): number {
    return Math.max(0, this.end - this.#ring.length);
  }

  /** Keeps `bytes`, the member's bytes from `end` on. */
  append(bytes: Uint8Array): void {
    const ring = this.#ring;
    const kept = bytes.subarray(Math.max(0, bytes.length - ring.length));
    const at = (this.end + bytes.length - kept.length) % ring.length;
    const first = Math.min(kept.length, ring.length - at);
    ring.set(kept.subarray(0, first), at);
    ring.set(kept.subarray(first), 0);
    this.end += bytes.length;
  }

  /** A copy of the member's bytes `from`..`to`, within `start`..`end`. */
  slice(from: number, to: number): Uint8Array {
    const ring = this.#ring;
    const out = new Uint8Array(to - from);
    const at = from % ring.length;
    const first = Math.min(out.length, ring.length - at);
    out.set(ring.subarray(at, at + first));
    out.set(ring.subarray(0, out.length - first), first);
    return out;
  }
}
