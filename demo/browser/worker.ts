/**
 * The pool's worker as the page loads it: the library's `./worker` export,
 * bundled on its own so that `new RepoFsPool(fs, { workerUrl })` can start
 * it from `worker.js`.
 *
 * @module
 */

import "../../workers/range_worker.ts";
