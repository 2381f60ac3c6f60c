/**
 * Deflate64 (zip method 9, "enhanced deflate", as Windows and 7-Zip write
 * it): deflate with a 64 KiB window, length code 285 taking 16 extra bits
 * and distance codes 30 and 31. No maintained npm package inflates it.
 * Input is pushed in pieces and output comes in pieces of at most ~320 KiB,
 * however much one piece inflates to.
 *
 * @module
 */

const WINDOW = 1 << 16;
const LONGEST = 3 + 0xffff;
const CHUNK = 256 * 1024;
/** Input held back until more comes or the end: a block header or symbol never runs out of bits. */
const MARGIN = 4096;

// deno-fmt-ignore
const LENGTH_BASE = Uint16Array.of(
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67,
  83, 99, 115, 131, 163, 195, 227, 3,
);
// deno-fmt-ignore
const LENGTH_EXTRA = Uint8Array.of(
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5,
  5, 5, 16,
);
// deno-fmt-ignore
const DISTANCE_BASE = Uint32Array.of(
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
  769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577, 32769,
  49153,
);
// deno-fmt-ignore
const DISTANCE_EXTRA = Uint8Array.of(
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11,
  11, 12, 12, 13, 13, 14, 14,
);
// deno-fmt-ignore
const CODE_LENGTH_ORDER = [
  16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/** A Huffman code as a lookup by the next `bits` bits: `symbol << 4 | length`, or -1. */
interface Table {
  entries: Int32Array;
  bits: number;
}

const enum State {
  Header,
  Stored,
  Codes,
  Done,
}

/** Deflate64 data that cannot be inflated. */
export class Inflate64Error extends Error {}

/** A Deflate64 stream inflated as its pieces are pushed. */
export class Inflate64 {
  #input: Uint8Array = new Uint8Array(0);
  #at = 0;
  #bits = 0;
  #count = 0;
  #state = State.Header;
  #last = false;
  #storedLeft = 0;
  #literals?: Table;
  #distances?: Table;
  readonly #out = new Uint8Array(WINDOW + LONGEST + CHUNK);
  #outAt = 0;
  #flushed = 0;

  /** Whether the last block has ended. */
  get done(): boolean {
    return this.#state === State.Done;
  }

  /**
   * Inflates `piece` and what was held back; with `final`, the stream must
   * end in it. Yields the output as it comes.
   */
  *push(piece: Uint8Array, final = false): Generator<Uint8Array> {
    const rest = this.#input.subarray(this.#at);
    const input = new Uint8Array(rest.length + piece.length);
    input.set(rest);
    input.set(piece, rest.length);
    this.#input = input;
    this.#at = 0;
    while (this.#state !== State.Done) {
      const held = !final && input.length - this.#at < MARGIN;
      if (this.#state === State.Stored) {
        if (!(yield* this.#stored(final))) break;
      } else if (held) {
        break;
      } else if (this.#state === State.Header) {
        this.#header();
      } else {
        yield* this.#codes(final);
      }
    }
    if (final && this.#state !== State.Done) {
      throw new Inflate64Error("the data ends before its last block");
    }
    if (this.#outAt > this.#flushed) {
      yield this.#out.slice(this.#flushed, this.#outAt);
      this.#flushed = this.#outAt;
    }
  }

  #header(): void {
    this.#last = this.#read(1) === 1;
    const type = this.#read(2);
    if (type === 0) {
      this.#read(this.#count & 7);
      const length = this.#read(16);
      if ((length ^ 0xffff) !== this.#read(16)) {
        throw new Inflate64Error("a stored block's length is damaged");
      }
      this.#storedLeft = length;
      this.#state = State.Stored;
    } else if (type === 1) {
      [this.#literals, this.#distances] = fixedTables();
      this.#state = State.Codes;
    } else if (type === 2) {
      this.#dynamicTables();
      this.#state = State.Codes;
    } else {
      throw new Inflate64Error("a block has the reserved type 3");
    }
  }

  /** Copies a stored block's bytes; false when the input ran out first. */
  *#stored(final: boolean): Generator<Uint8Array, boolean> {
    while (this.#storedLeft > 0 && this.#count >= 8) {
      yield* this.#room(1);
      this.#out[this.#outAt++] = this.#bits & 0xff;
      this.#bits >>>= 8;
      this.#count -= 8;
      this.#storedLeft--;
    }
    while (this.#storedLeft > 0) {
      const available = this.#input.length - this.#at;
      if (available === 0) {
        if (final) throw new Inflate64Error("a stored block is cut short");
        return false;
      }
      const n = Math.min(this.#storedLeft, available, CHUNK);
      yield* this.#room(n);
      this.#out.set(this.#input.subarray(this.#at, this.#at + n), this.#outAt);
      this.#outAt += n;
      this.#at += n;
      this.#storedLeft -= n;
    }
    this.#state = this.#last ? State.Done : State.Header;
    return true;
  }

  *#codes(final: boolean): Generator<Uint8Array> {
    const literals = this.#literals!;
    const distances = this.#distances!;
    const out = this.#out;
    while (final || this.#input.length - this.#at >= MARGIN) {
      const symbol = this.#symbol(literals);
      if (symbol < 256) {
        yield* this.#room(1);
        out[this.#outAt++] = symbol;
        continue;
      }
      if (symbol === 256) {
        this.#state = this.#last ? State.Done : State.Header;
        return;
      }
      const lengthCode = symbol - 257;
      if (lengthCode >= LENGTH_BASE.length) {
        throw new Inflate64Error(`length code ${symbol} is not defined`);
      }
      const length = LENGTH_BASE[lengthCode] +
        this.#read(LENGTH_EXTRA[lengthCode]);
      const distanceCode = this.#symbol(distances);
      const distance = DISTANCE_BASE[distanceCode] +
        this.#read(DISTANCE_EXTRA[distanceCode]);
      yield* this.#room(length);
      const at = this.#outAt;
      if (distance > at) {
        throw new Inflate64Error(
          `a distance of ${distance} reaches before the data's start`,
        );
      }
      if (distance >= length) {
        out.copyWithin(at, at - distance, at - distance + length);
      } else {
        for (let i = 0; i < length; i++) out[at + i] = out[at + i - distance];
      }
      this.#outAt = at + length;
    }
  }

  /** Makes room for `n` more bytes, giving out what was inflated and keeping the window. */
  *#room(n: number): Generator<Uint8Array> {
    if (this.#outAt + n <= this.#out.length) return;
    yield this.#out.slice(this.#flushed, this.#outAt);
    const keep = Math.min(this.#outAt, WINDOW);
    this.#out.copyWithin(0, this.#outAt - keep, this.#outAt);
    this.#outAt = this.#flushed = keep;
  }

  #dynamicTables(): void {
    const literalCount = this.#read(5) + 257;
    const distanceCount = this.#read(5) + 1;
    const codeCount = this.#read(4) + 4;
    const codeLengths = new Uint8Array(19);
    for (let i = 0; i < codeCount; i++) {
      codeLengths[CODE_LENGTH_ORDER[i]] = this.#read(3);
    }
    const codeTable = table(codeLengths);
    const lengths = new Uint8Array(literalCount + distanceCount);
    for (let i = 0; i < lengths.length;) {
      const symbol = this.#symbol(codeTable);
      if (symbol < 16) {
        lengths[i++] = symbol;
        continue;
      }
      let repeat: number;
      let value = 0;
      if (symbol === 16) {
        if (i === 0) throw new Inflate64Error("a repeat with nothing before");
        value = lengths[i - 1];
        repeat = 3 + this.#read(2);
      } else if (symbol === 17) {
        repeat = 3 + this.#read(3);
      } else {
        repeat = 11 + this.#read(7);
      }
      if (i + repeat > lengths.length) {
        throw new Inflate64Error("code lengths run past their count");
      }
      lengths.fill(value, i, i + repeat);
      i += repeat;
    }
    if (lengths[256] === 0) {
      throw new Inflate64Error("a block has no end-of-block code");
    }
    this.#literals = table(lengths.subarray(0, literalCount));
    this.#distances = table(lengths.subarray(literalCount));
  }

  #symbol(code: Table): number {
    this.#fill(code.bits);
    const entry = code.entries[this.#bits & ((1 << code.bits) - 1)];
    const length = entry & 15;
    if (entry < 0 || length > this.#count) {
      throw new Inflate64Error(
        entry < 0 ? "a code is not in its table" : "the data is cut short",
      );
    }
    this.#bits >>>= length;
    this.#count -= length;
    return entry >> 4;
  }

  /** The next `n` (at most 16) bits. */
  #read(n: number): number {
    this.#fill(n);
    if (this.#count < n) throw new Inflate64Error("the data is cut short");
    const value = this.#bits & ((1 << n) - 1);
    this.#bits >>>= n;
    this.#count -= n;
    return value;
  }

  /** Takes bytes into the bit buffer until it holds `n` bits or the input ends. */
  #fill(n: number): void {
    while (this.#count < n && this.#at < this.#input.length) {
      this.#bits |= this.#input[this.#at++] << this.#count;
      this.#count += 8;
    }
  }
}

/** The lookup table of the canonical code with these code lengths. */
function table(lengths: Uint8Array): Table {
  const bits = Math.max(1, ...lengths);
  const counts = new Uint16Array(16);
  for (const length of lengths) counts[length]++;
  counts[0] = 0;
  const next = new Uint16Array(16);
  for (let length = 1, code = 0; length < 16; length++) {
    code = (code + counts[length - 1]) << 1;
    next[length] = code;
    if (code + counts[length] > 1 << length) {
      throw new Inflate64Error("a Huffman code is over-subscribed");
    }
  }
  const entries = new Int32Array(1 << bits).fill(-1);
  lengths.forEach((length, symbol) => {
    if (length === 0) return;
    let code = next[length]++;
    let reversed = 0;
    for (let i = 0; i < length; i++, code >>= 1) {
      reversed = (reversed << 1) | (code & 1);
    }
    for (let at = reversed; at < entries.length; at += 1 << length) {
      entries[at] = (symbol << 4) | length;
    }
  });
  return { entries, bits };
}

let fixed: [Table, Table] | undefined;

function fixedTables(): [Table, Table] {
  if (fixed === undefined) {
    const literals = new Uint8Array(288);
    literals.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(
      8,
      280,
      288,
    );
    fixed = [table(literals), table(new Uint8Array(32).fill(5))];
  }
  return fixed;
}
