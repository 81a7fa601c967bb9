// OGC WKT 1 as a tree (KEYWORD[arg, …], each arg a quoted string, a number, a bare word or a
// node), read by a tokenizer that follows brackets and quotes. proj4 parses a projected CRS for
// projecting; this tree is only for what proj4's parser does not take: splitting a COMPD_CS into
// its horizontal and vertical parts, and reading the names and the vertical unit.
export interface WktNode {
  readonly keyword: string;
  readonly args: readonly (string | number | WktNode)[];
  /** Where the node starts and ends in the text it was read from. */
  readonly start: number;
  readonly end: number;
}

export function parseWkt(text: string): WktNode | null {
  let at = 0;
  const space = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  function node(): WktNode | null {
    space();
    const start = at;
    while (at < text.length && /[A-Za-z0-9_]/.test(text[at]!)) at++;
    const keyword = text.slice(start, at).toUpperCase();
    space();
    if (!keyword || (text[at] !== '[' && text[at] !== '(')) return null;
    const close = text[at] === '[' ? ']' : ')';
    at++;
    const args: (string | number | WktNode)[] = [];
    for (;;) {
      space();
      const c = text[at];
      if (c === undefined) return null;
      if (c === close) {
        at++;
        return { keyword, args, start, end: at };
      }
      if (c === ',') {
        at++;
        continue;
      }
      if (c === '"') {
        let value = '';
        at++;
        for (;;) {
          const q = text.indexOf('"', at);
          if (q < 0) return null;
          value += text.slice(at, q);
          at = q + 1;
          // WKT escapes a quote inside a string by doubling it.
          if (text[at] === '"') {
            value += '"';
            at++;
          } else break;
        }
        args.push(value);
        continue;
      }
      const wordStart = at;
      while (at < text.length && !/[\s,[\]()"]/.test(text[at]!)) at++;
      const word = text.slice(wordStart, at);
      space();
      if (text[at] === '[' || text[at] === '(') {
        at = wordStart;
        const child = node();
        if (!child) return null;
        args.push(child);
      } else if (word === '') {
        return null;
      } else {
        const n = Number(word);
        args.push(Number.isFinite(n) ? n : word);
      }
    }
  }
  const root = node();
  space();
  return root && at === text.length ? root : null;
}

/** The node's first quoted argument: a CRS's, datum's or unit's name. */
export const nameOf = (node: WktNode | undefined): string | undefined =>
  typeof node?.args[0] === 'string' ? node.args[0] : undefined;

/** The first direct child with one of the keywords. */
export function child(node: WktNode | undefined, ...keywords: string[]): WktNode | undefined {
  return node?.args.find((a): a is WktNode => typeof a === 'object' && keywords.includes(a.keyword));
}

/** The first node with one of the keywords, depth first (WKT 2 keeps a unit under AXIS or CS). */
export function descendant(node: WktNode | undefined, ...keywords: string[]): WktNode | undefined {
  for (const a of node?.args ?? []) {
    if (typeof a !== 'object') continue;
    if (keywords.includes(a.keyword)) return a;
    const found = descendant(a, ...keywords);
    if (found) return found;
  }
  return undefined;
}

/** The node's own text, so a part of a compound CRS can be given to proj4 as it was written. */
export const textOf = (text: string, node: WktNode): string => text.slice(node.start, node.end);
