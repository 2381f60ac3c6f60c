/**
 * The fault matrix against the in-process reads of a RepoFs: the right bytes
 * or the named error for every fault of tests/fault_matrix.ts.
 */
import { deepStrictEqual } from "node:assert/strict";
import { collect } from "../src/content/content.ts";
import {
  DATA,
  dataset,
  faultMatrix,
  RANGE,
  type Surface,
} from "./fault_matrix.ts";

const SURFACES: Surface[] = [
  {
    name: "catFile whole",
    ranged: false,
    async read(emu) {
      deepStrictEqual(await dataset(emu).catFile("data.bin"), DATA);
    },
  },
  {
    name: "catFile ranged",
    ranged: true,
    async read(emu) {
      deepStrictEqual(
        await dataset(emu).catFile("data.bin", RANGE),
        DATA.slice(RANGE.start, RANGE.end),
      );
      deepStrictEqual(
        await dataset(emu).catFile("data.bin", { start: -100 }),
        DATA.slice(-100),
      );
    },
  },
  {
    name: "stream()",
    ranged: false,
    async read(emu) {
      const file = await dataset(emu).open("data.bin");
      deepStrictEqual(await collect(file.stream()), DATA);
    },
  },
];

faultMatrix("fault matrix", SURFACES);
