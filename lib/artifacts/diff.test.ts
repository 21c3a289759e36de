import { describe, expect, it } from 'vitest';
import { diffLines, mapLine } from './diff';
import { parseCsv } from './csv';

describe('line diff', () => {
  it('always rebuilds both texts, with the fewest changes, for random texts', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const text = () => Array.from({ length: Math.floor(random() * 14) }, () => 'abcd'[Math.floor(random() * 4)]).join('\n');
    for (let n = 0; n < 500; n++) {
      const [a, b] = [text(), text()];
      const { lines, added, removed } = diffLines(a, b);
      expect(lines.filter((l) => l.op !== 'add').map((l) => l.text).join('\n')).toBe(a);
      expect(lines.filter((l) => l.op !== 'del').map((l) => l.text).join('\n')).toBe(b);
      // Minimal: the unchanged lines are a longest common subsequence.
      const lcs = (x: string[], y: string[]) => {
        const t = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
        for (let i = 1; i <= x.length; i++) for (let j = 1; j <= y.length; j++) t[i]![j] = x[i - 1] === y[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
        return t[x.length]![y.length]!;
      };
      const split = (s: string) => (s ? s.split('\n') : []);
      expect(split(a).length - removed).toBe(lcs(split(a), split(b)));
      expect(split(b).length - added).toBe(lcs(split(a), split(b)));
    }
  });

  it('maps a line to its new place while it is unchanged', () => {
    expect(mapLine('a\nb\nc', 'x\na\nb\nc', 2)).toBe(3);
    expect(mapLine('a\nb\nc', 'a\nB\nc', 2)).toBeNull();
    expect(mapLine('a\nb\nc', 'a\nc', 3)).toBe(2);
  });
});

describe('CSV', () => {
  it('reads quotes, escaped quotes and line breaks inside quotes, and TSV', () => {
    expect(parseCsv('name,note\n"Rossi, Giulia","said ""ciao""\nthen left"\n')).toEqual([
      ['name', 'note'],
      ['Rossi, Giulia', 'said "ciao"\nthen left'],
    ]);
    expect(parseCsv('a\tb\n1\t2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});
