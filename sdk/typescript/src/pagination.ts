// Every list of the service pages with cursors: a page holds at most
// `limit` items (1-100) and, when more follow, a `next_cursor` that asks for
// the next page (null on the last). Cursors are opaque and good only for the
// list, caller and filters they came from. The all… methods walk every page:
//
//   for await (const tx of bot.allTransactions()) console.log(tx.id);
import type { CallOptions } from "./transport.js";

/** Chooses one page of a list. */
export interface PageOptions {
  /** 1-100; the list's default when left out. */
  limit?: number;
  /** The previous page's next_cursor; the first page when left out. */
  cursor?: string;
}

/** The page size of the iterators unless told otherwise: the largest, for the fewest requests. */
export const ITERATOR_PAGE_SIZE = 100;

/** Options of the all… iterators. */
export interface IterateOptions extends CallOptions {
  /** Items per request, 1-100; 100 unless set. */
  pageSize?: number;
}

/**
 * Iterates over every item of a list: fetchPage reads the page after
 * cursor (the first when undefined); itemsOf and nextOf read a page.
 */
export async function* paginate<P, T>(
  fetchPage: (page: PageOptions) => Promise<P>,
  itemsOf: (page: P) => readonly T[],
  nextOf: (page: P) => string | null | undefined,
  pageSize: number = ITERATOR_PAGE_SIZE,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage({ limit: pageSize, cursor });
    yield* itemsOf(page);
    const next = nextOf(page);
    if (!next) return;
    if (next === cursor) throw new Error("botpay: the service answered the same next_cursor twice; paging stopped");
    cursor = next;
  }
}

/** The cursor of the rel="next" target of Link header values (RFC 8288), or null. */
export function nextCursorOfLink(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const [, target = "", params = ""] = match;
    const rel = /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(params)?.[1] ?? "";
    if (!rel.split(/\s+/).some((r) => r.toLowerCase() === "next")) continue;
    const cursor = new URL(target, "http://link.invalid").searchParams.get("cursor");
    if (cursor) return cursor;
  }
  return null;
}
