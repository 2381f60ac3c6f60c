/**
 * The explorer's pool worker: the library's `./worker`, with its reads
 * counted for the page's status line (the meter is set first, by import
 * order, so the worker's `RepoFs` fetches through it).
 *
 * @module
 */

import "./worker_meter.ts";
import "../workers/range_worker.ts";
