/**
 * Line diff between two versions (Myers' O(ND) algorithm, written here: no dependency), and the line
 * mapping that lets a comment follow its line through later versions. Client-safe.
 */

export interface DiffLine {
  op: 'same' | 'add' | 'del';
  text: string;
  /** 1-based line in the older text (same, del). */
  a?: number;
  /** 1-based line in the newer text (same, add). */
  b?: number;
}

export interface Diff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** Past this many edits the texts have little in common: shown as everything removed and added. */
const MAX_EDITS = 4000;

export const splitLines = (text: string) => (text === '' ? [] : text.replace(/\r\n?/g, '\n').split('\n'));

export function diffLines(older: string, newer: string): Diff {
  const a = splitLines(older);
  const b = splitLines(newer);
  // Common head and tail need no search.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  const lines: DiffLine[] = [];
  for (let i = 0; i < head; i++) lines.push({ op: 'same', text: a[i]!, a: i + 1, b: i + 1 });
  for (const step of middle) {
    if (step.op === 'same') lines.push({ op: 'same', text: a[head + step.i]!, a: head + step.i + 1, b: head + step.j + 1 });
    else if (step.op === 'del') lines.push({ op: 'del', text: a[head + step.i]!, a: head + step.i + 1 });
    else lines.push({ op: 'add', text: b[head + step.j]!, b: head + step.j + 1 });
  }
  for (let t = tail; t > 0; t--) lines.push({ op: 'same', text: a[a.length - t]!, a: a.length - t + 1, b: b.length - t + 1 });
  return { lines, added: lines.filter((l) => l.op === 'add').length, removed: lines.filter((l) => l.op === 'del').length };
}

type Step = { op: 'same'; i: number; j: number } | { op: 'del'; i: number } | { op: 'add'; j: number };

function myers(a: string[], b: string[]): Step[] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v for diagonals -d..d as it was before round d: enough to walk back.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  // Too different to search further.
  return [...a.map((_, i) => ({ op: 'del' as const, i })), ...b.map((_, j) => ({ op: 'add' as const, j }))];
}

function backtrack(trace: Int32Array[], n: number, m: number): Step[] {
  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!;
    const at = (k: number) => v[k + d]!;
    const k = x - y;
    // Round 0 starts at the origin; every later round came from the neighbouring diagonal.
    const prevK = d === 0 ? 0 : k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      steps.push({ op: 'same', i: x, j: y });
    }
    if (d > 0) {
      if (x === prevX) steps.push({ op: 'add', j: prevY });
      else steps.push({ op: 'del', i: prevX });
    }
    x = prevX;
    y = prevY;
  }
  return steps.reverse();
}

/**
 * Where line `line` of `older` is in `newer`: its new number when the line survived unchanged, null
 * when it was changed or removed.
 */
export function mapLine(older: string, newer: string, line: number): number | null {
  if (older === newer) return line;
  const same = diffLines(older, newer).lines.find((l) => l.op === 'same' && l.a === line);
  return same?.b ?? null;
}
