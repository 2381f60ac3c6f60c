/**
 * Persistent ids of datasets in the forms people paste, brought to the one
 * form the repository takes as `persistentId`: `doi:<authority>/<id>`,
 * `hdl:<prefix>/<suffix>` or `perma:<id>`.
 *
 * @module
 */

const ACCEPTED = "doi:<authority>/<identifier> (also DOI:…, a bare 10.…/…, " +
  "https://doi.org/…), hdl:<prefix>/<suffix> (also https://hdl.handle.net/…) " +
  "or perma:<identifier>";

/** `<authority>/<identifier>`: no white space, something on both sides of the first `/`. */
const SLASHED = /^[^/\s]+\/\S+$/;
const BARE_DOI = /^10\.[^/\s]+\/\S+$/;
const SCHEME = /^(doi|hdl|perma):(.*)$/i;
/** Resolver hosts: the scheme their paths belong to, and the shape a path must have. */
const RESOLVERS: Record<string, { scheme: string; shape: RegExp }> = {
  "doi.org": { scheme: "doi", shape: BARE_DOI },
  "dx.doi.org": { scheme: "doi", shape: BARE_DOI },
  "hdl.handle.net": { scheme: "hdl", shape: SLASHED },
};

/**
 * The normal form of a dataset's persistent id: the scheme in lower case,
 * the identifier as given. A `TypeError` names the value and the accepted
 * forms.
 */
export function normalizePid(value: unknown): string {
  const pid = typeof value === "string" ? fromText(value.trim()) : undefined;
  if (pid === undefined) {
    throw new TypeError(
      `pid must be ${ACCEPTED}; got ${JSON.stringify(value)}`,
    );
  }
  return pid;
}

function fromText(text: string): string | undefined {
  if (BARE_DOI.test(text)) return `doi:${text}`;
  const scheme = SCHEME.exec(text);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    const rest = scheme[2];
    const shaped = name === "perma" ? /^\S+$/.test(rest) : SLASHED.test(rest);
    return shaped ? `${name}:${rest}` : undefined;
  }
  return fromResolverUrl(text);
}

/** `https://doi.org/10.x/y` and `https://hdl.handle.net/1902.1/y`, query and fragment dropped. */
function fromResolverUrl(text: string): string | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  let url: URL;
  let path: string;
  try {
    url = new URL(text);
    path = decodeURIComponent(url.pathname.slice(1));
  } catch {
    return undefined;
  }
  const resolver = RESOLVERS[url.hostname];
  if (resolver === undefined || !resolver.shape.test(path)) return undefined;
  return `${resolver.scheme}:${path}`;
}
