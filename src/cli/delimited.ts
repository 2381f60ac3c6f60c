/**
 * One line of a delimited text table (CSV, or tab-separated as Dataverse
 * writes `.tab` files) split into its fields.
 *
 * @module
 */

/** The delimiter of a file by its name: a tab for `.tab` and `.tsv`, else a comma. */
export function delimiterOf(path: string): string {
  return /\.(tab|tsv)$/i.test(path) ? "\t" : ",";
}

/**
 * The fields of `line`: a field in double quotes may hold the delimiter and
 * `""` for a quote; quotes elsewhere are kept as they are.
 */
export function splitFields(line: string, delimiter: string): string[] {
  const fields: string[] = [];
  let at = 0;
  while (at <= line.length) {
    if (line[at] === '"') {
      let text = "";
      let i = at + 1;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          text += '"';
          i += 2;
        } else if (line[i] === '"') break;
        else text += line[i++];
      }
      const next = line.indexOf(delimiter, i);
      fields.push(
        text + (next < 0 ? line.slice(i + 1) : line.slice(i + 1, next)),
      );
      at = next < 0 ? line.length + 1 : next + delimiter.length;
    } else {
      const next = line.indexOf(delimiter, at);
      fields.push(next < 0 ? line.slice(at) : line.slice(at, next));
      at = next < 0 ? line.length + 1 : next + delimiter.length;
    }
  }
  return fields;
}
