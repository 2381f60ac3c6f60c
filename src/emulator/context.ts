/**
 * What the request handlers of both origins share.
 *
 * @module
 */

import type { EmulatorCounters } from "./counters.ts";
import type { Dataset } from "./dataset.ts";
import type { EmulatorFaults } from "./faults.ts";
import type { UrlSigner } from "./signing.ts";
import type { RequestLedger } from "./respond_hook.ts";

/** The emulator's state as the handlers see it. */
export interface EmulatorContext {
  /** The served dataset. */
  dataset: Dataset;
  /** The live fault knobs. */
  faults: EmulatorFaults;
  /** The live counters. */
  counters: EmulatorCounters;
  /** Signs and checks store URLs. */
  signer: UrlSigner;
  /** The token repository requests need, if any. */
  token?: string;
  /** The header that carries the token. */
  tokenHeader: string;
  /** The path segment(s) of collections under `/api`. */
  collectionsPath: string;
  /** Whether the version files endpoint pages (else it answers 404). */
  pagedFiles: boolean;
  /** Most files per page of the paged file list. */
  maxPageSize: number;
  /** `http://<host>:<port>` of the object store. */
  storeOrigin: string;
  /** What each request is: route, file, attempt. */
  ledger: RequestLedger;
  /** The dataset path of a file of the main version, by id. */
  pathOf(fileId: number): string | undefined;
  /** Aborts when the emulator closes. */
  closed: AbortSignal;
  /**
   * Waits `ms` milliseconds before answering `request`, cut short when its
   * client goes away or the emulator closes; true when the client went away.
   */
  pause(request: Request, ms: number): Promise<boolean>;
}
