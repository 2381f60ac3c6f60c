/**
 * A member's name as text: UTF-8 when the entry says so (flag bit 11) or
 * its bytes are valid UTF-8, else code page 437 as the zip specification
 * says; an Info-ZIP Unicode Path extra field (0x7075) gives the UTF-8 name
 * (a Unicode Comment field, 0x6375, the comment) instead while the CRC-32 it carries is that of the raw name beside it
 * (else the raw name was changed by a tool that did not know the field,
 * and wins).
 *
 * @module
 */

import { crc32 } from "./crc32.ts";

/** Extra field id of the Info-ZIP Unicode Path field. */
export const UNICODE_PATH = 0x7075;
/** Extra field id of the Info-ZIP Unicode Comment field: the same form, for a comment. */
export const UNICODE_COMMENT = 0x6375;

const UTF8_FLAG = 1 << 11;
const CP437_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const utf8 = new TextDecoder();

/**
 * The text of `raw`, the name (or comment) of an entry with `flags`;
 * `unicodeFields` are the bodies of its Unicode Path (or Comment) fields:
 * the first of version 1 with text and the raw bytes' CRC-32 gives it, as
 * Info-ZIP and yauzl read them.
 */
export function memberName(
  raw: Uint8Array,
  flags: number,
  unicodeFields: Iterable<Uint8Array>,
): string {
  for (const field of unicodeFields) {
    if (
      field.length > 5 && field[0] === 1 &&
      new DataView(field.buffer, field.byteOffset + 1, 4).getUint32(0, true) ===
        crc32(raw)
    ) {
      return utf8.decode(field.subarray(5));
    }
  }
  if (flags & UTF8_FLAG) return utf8.decode(raw);
  try {
    return strictUtf8.decode(raw);
  } catch {
    return Array.from(
      raw,
      (b) => b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80],
    ).join("");
  }
}
