/**
 * Sets the byte meter in a pool worker before the worker's own module runs.
 *
 * @module
 */

import { meterWorker } from "./byte_meter.ts";

meterWorker();
