/**
 * The dataset's tree as an ARIA tree (`role="tree"`, one `role="treeitem"`
 * per shown row): folders expand lazily, only the rows in view are in the
 * DOM (a folder of 100,000 files scrolls as one of ten), the keyboard moves
 * as the ARIA practices say, and a filter box narrows it to a glob.
 *
 * @module
 */

/// <reference lib="dom" />

import type { FileInfo } from "../mod.ts";
import { humanSize } from "./human_size.ts";

/** What the tree reads: a `RepoFs` or a `zipTree`. */
export interface TreeSource {
  ls(path: string): Promise<FileInfo[]>;
  glob(pattern: string): Promise<string[]>;
  info(path: string): Promise<FileInfo>;
}

/** One shown row. */
interface Row {
  entry: FileInfo;
  depth: number;
  /** What the row shows: the base name, or the whole path in a filtered list. */
  label: string;
}

const ROW_PX = 24;
/** Rows drawn beyond the visible ones, above and below. */
const SPARE_ROWS = 10;

/** The base name of a dataset path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A virtualised ARIA tree over a source. */
export class TreeView {
  readonly #source: TreeSource;
  readonly #element: HTMLElement;
  readonly #canvas: HTMLElement;
  readonly #onOpen: (entry: FileInfo) => void;
  readonly #children = new Map<string, FileInfo[]>();
  readonly #expanded = new Set<string>([""]);
  #rows: Row[] = [];
  #active = 0;
  #filtered = false;

  /**
   * @param element the scrolling container, made the tree
   * @param source what is listed
   * @param onOpen called with an entry the user opens (click, Enter, Space)
   */
  constructor(
    element: HTMLElement,
    source: TreeSource,
    onOpen: (entry: FileInfo) => void,
  ) {
    this.#element = element;
    this.#source = source;
    this.#onOpen = onOpen;
    element.setAttribute("role", "tree");
    element.setAttribute("aria-label", "Files");
    element.tabIndex = 0;
    this.#canvas = document.createElement("div");
    this.#canvas.className = "tree-canvas";
    element.replaceChildren(this.#canvas);
    element.addEventListener("scroll", () => this.#render());
    element.addEventListener("keydown", (event) => void this.#key(event));
    element.addEventListener("click", (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>(
        "[role=treeitem]",
      );
      if (row) void this.#choose(Number(row.dataset.index), true);
    });
    new ResizeObserver(() => this.#render()).observe(element);
  }

  /** Lists the root. */
  async start(): Promise<void> {
    await this.#load("");
    this.#rebuild();
  }

  /** The number of rows the tree holds now (shown or not). */
  get rowCount(): number {
    return this.#rows.length;
  }

  /**
   * Shows only the paths matching `pattern` (a glob; a pattern without `/`
   * matches names at any depth); an empty pattern shows the tree again.
   */
  async filter(pattern: string): Promise<void> {
    const wanted = pattern.trim();
    if (wanted === "") {
      this.#filtered = false;
      this.#rebuild();
      return;
    }
    const glob = wanted.includes("/") ? wanted : `**/${wanted}`;
    const paths = await this.#source.glob(glob);
    const entries = await Promise.all(paths.map((p) => this.#source.info(p)));
    this.#filtered = true;
    this.#rows = entries.map((entry) => ({
      entry,
      depth: 0,
      label: entry.name,
    }));
    this.#active = 0;
    this.#element.scrollTop = 0;
    this.#render();
  }

  /** Opens the folders above `path`, shows its row and opens it. */
  async reveal(path: string): Promise<FileInfo> {
    const entry = await this.#source.info(path);
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      await this.#load(dir);
      this.#expanded.add(dir);
    }
    this.#filtered = false;
    this.#rebuild();
    const index = this.#rows.findIndex((row) => row.entry.name === entry.name);
    if (index >= 0) await this.#choose(index, true);
    return entry;
  }

  async #load(dir: string): Promise<FileInfo[]> {
    let children = this.#children.get(dir);
    if (children === undefined) {
      children = await this.#source.ls(dir);
      this.#children.set(dir, children);
    }
    return children;
  }

  /** The rows of the open folders, depth first. */
  #rebuild(): void {
    const rows: Row[] = [];
    const stack: Row[] = [];
    const push = (dir: string, depth: number) => {
      const children = this.#children.get(dir) ?? [];
      for (let i = children.length - 1; i >= 0; i--) {
        const entry = children[i];
        stack.push({ entry, depth, label: baseName(entry.name) });
      }
    };
    push("", 0);
    while (stack.length > 0) {
      const row = stack.pop()!;
      rows.push(row);
      if (
        row.entry.type === "directory" && this.#expanded.has(row.entry.name)
      ) {
        push(row.entry.name, row.depth + 1);
      }
    }
    this.#rows = rows;
    this.#active = Math.min(this.#active, Math.max(0, rows.length - 1));
    this.#render();
  }

  /** Draws the rows in view (and a few beyond), nothing else. */
  #render(): void {
    this.#canvas.style.height = `${this.#rows.length * ROW_PX}px`;
    const top = this.#element.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW_PX) - SPARE_ROWS);
    const last = Math.min(
      this.#rows.length,
      Math.ceil((top + this.#element.clientHeight) / ROW_PX) + SPARE_ROWS,
    );
    const items: HTMLElement[] = [];
    for (let i = first; i < last; i++) items.push(this.#item(i));
    this.#canvas.replaceChildren(...items);
    const active = this.#rows.length > 0 ? `treeitem-${this.#active}` : "";
    if (active && this.#active >= first && this.#active < last) {
      this.#element.setAttribute("aria-activedescendant", active);
    } else this.#element.removeAttribute("aria-activedescendant");
  }

  #item(index: number): HTMLElement {
    const { entry, depth, label } = this.#rows[index];
    const item = document.createElement("div");
    item.setAttribute("role", "treeitem");
    item.id = `treeitem-${index}`;
    item.dataset.index = String(index);
    item.dataset.path = entry.name;
    item.setAttribute("aria-label", label);
    item.setAttribute("aria-level", String(depth + 1));
    item.setAttribute("aria-selected", String(index === this.#active));
    if (entry.type === "directory" && !this.#filtered) {
      item.setAttribute(
        "aria-expanded",
        String(this.#expanded.has(entry.name)),
      );
    }
    item.style.top = `${index * ROW_PX}px`;
    item.style.paddingLeft = `${0.4 + depth * 1.1}rem`;
    const marker = entry.type === "directory"
      ? (this.#expanded.has(entry.name) && !this.#filtered ? "▾ " : "▸ ")
      : "  ";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${marker}${label}`;
    const size = document.createElement("span");
    size.className = "size";
    size.textContent = entry.type === "file" ? humanSize(entry.size) : "";
    item.append(name, size);
    if (entry.restricted) {
      item.dataset.restricted = "true";
      item.title = "restricted: reading it needs a token with access";
      name.textContent += " 🔒";
    }
    return item;
  }

  /** Makes row `index` the active one, scrolled into view; opens it if asked. */
  async #choose(index: number, open: boolean): Promise<void> {
    if (index < 0 || index >= this.#rows.length) return;
    this.#active = index;
    const top = index * ROW_PX;
    const view = this.#element;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (top + ROW_PX > view.scrollTop + view.clientHeight) {
      view.scrollTop = top + ROW_PX - view.clientHeight;
    }
    this.#render();
    if (!open) return;
    const { entry } = this.#rows[index];
    if (entry.type === "directory" && !this.#filtered) {
      await this.#toggle(entry.name);
    }
    this.#onOpen(entry);
  }

  async #toggle(dir: string): Promise<void> {
    if (this.#expanded.has(dir)) this.#expanded.delete(dir);
    else {
      await this.#load(dir);
      this.#expanded.add(dir);
    }
    this.#rebuild();
  }

  async #key(event: KeyboardEvent): Promise<void> {
    const row = this.#rows[this.#active];
    if (row === undefined) return;
    const isDir = row.entry.type === "directory" && !this.#filtered;
    const open = isDir && this.#expanded.has(row.entry.name);
    const step = Math.max(
      1,
      Math.floor(this.#element.clientHeight / ROW_PX) - 1,
    );
    const moves: Record<string, () => Promise<void>> = {
      ArrowDown: () => this.#choose(this.#active + 1, false),
      ArrowUp: () => this.#choose(this.#active - 1, false),
      PageDown: () =>
        this.#choose(
          Math.min(this.#rows.length - 1, this.#active + step),
          false,
        ),
      PageUp: () => this.#choose(Math.max(0, this.#active - step), false),
      Home: () => this.#choose(0, false),
      End: () => this.#choose(this.#rows.length - 1, false),
      ArrowRight: async () => {
        if (isDir && !open) await this.#toggle(row.entry.name);
        else if (open) await this.#choose(this.#active + 1, false);
      },
      ArrowLeft: async () => {
        if (open) return this.#toggle(row.entry.name);
        const parent = row.entry.name.slice(
          0,
          Math.max(0, row.entry.name.lastIndexOf("/")),
        );
        const index = this.#rows.findIndex((r) => r.entry.name === parent);
        if (index >= 0) await this.#choose(index, false);
      },
      Enter: () => this.#choose(this.#active, true),
      " ": () => this.#choose(this.#active, true),
    };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    await move();
  }
}
