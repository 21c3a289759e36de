/**
 * Where a workspace's known names occur in a text: each name as recorded, and the short forms people write
 * for a name of two words or more: the surname alone ("Rossi", "De Luca") and the first name with the
 * surname's initial ("Maria R.", "Maria R"). The text is read word by word with one lookup per word, so the
 * cost does not grow with the number of names (a regular expression with one alternative per name tries each
 * of them at every position: 10,000 customers made a 4.5 KB text take over a second).
 *
 * A short form of one person only stands for that person (same alias, re-identified as the full name); a
 * short form that several people share stands for itself. A name of one word and every short form match only
 * where a word of them is written with a capital letter, as names are, so a surname or a one-word name that
 * is also an ordinary word ("Costa", "Sole") leaves the lowercase word alone. Names shorter than three
 * characters, and short forms whose name part is, are not matched: they would mask ordinary words.
 */

const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
// A name split into its words and what stands between them: [word, sep, word, …] (empty ends around a leading or trailing sep).
const SPLIT = /([^\p{L}\p{M}\p{N}_]+)/u;
// What follows a word in the text: the separator, then the next word.
const NEXT = /([^\p{L}\p{M}\p{N}_]+)([\p{L}\p{M}\p{N}_]+)/uy;
// A word of the text that starts with a capital letter.
const CAPITALIZED = /(?<![\p{L}\p{M}\p{N}_])\p{Lu}/u;
const MIN_LENGTH = 3;
// Lowercase words that belong to the surname after them ("Anna De Luca" is "De Luca", not "Luca").
const PARTICLES = new Set(['d', 'da', 'dal', 'dalla', 'de', 'dei', 'degli', 'del', 'della', 'dello', 'der', 'di', 'du', 'la', 'le', 'lo', 'van', 'von']);

export interface NameForm {
  /** What stands between two words: ' ' for any whitespace, else the punctuation as written (whitespace collapsed). */
  seps: string[];
  /** A '.' right after the last word belongs to the match (an initial). */
  dot: boolean;
  /** Matches only where a word of it starts with a capital letter. */
  capital: boolean;
  /** Whose name it is: the key of the recorded name, or the form's own key when several people share it. */
  person: string;
  /** The recorded name, when this is a short form of one person's name: what its alias re-identifies to. */
  full?: string;
}

/** The forms that end after a sequence of words, and the longer sequences that go on from it. */
interface Node {
  forms?: NameForm[];
  next?: Map<string, Node>;
}

/** A short form, keyed by its words and separators, and whose it is. */
interface ShortForm {
  key: string;
  words: string[];
  seps: string[];
  person?: string;
  full?: string;
  shared?: boolean;
}

/** The same name however it is spaced or capitalized. */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

const sepOf = (text: string) => text.replace(/\s+/g, ' ').replace(/[‘’]/g, "'");

/** The words of a lowercase name and its separators. */
function parse(lower: string): { words: string[]; seps: string[] } {
  const parts = lower.split(SPLIT);
  const words: string[] = [];
  const seps: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    if (!parts[i]) continue;
    if (words.length > 0) seps.push(sepOf(parts[i - 1]!));
    words.push(parts[i]!);
  }
  return { words, seps };
}

/** Words `from` to `to` with their separators, as one string. */
function keyOf(words: string[], seps: string[], from = 0, to = words.length): string {
  let key = words[from]!;
  for (let i = from + 1; i < to; i++) key += seps[i - 1]! + words[i]!;
  return key;
}

/**
 * The short forms of a name of two words or more: the surname, the first name with the surname's initial, and
 * all the given names with it. Parts are what whitespace separates ("D'Angelo" and "Anna-Maria" are one part).
 */
function shortForms(words: string[], seps: string[]): ShortForm[] {
  const parts = [0];
  for (let i = 0; i < seps.length; i++) if (seps[i] === ' ') parts.push(i + 1);
  if (parts.length < 2) return [];
  let s = parts.length - 1;
  while (s > 1 && parts[s]! - parts[s - 1]! === 1 && PARTICLES.has(words[parts[s - 1]!]!)) s--;
  const at = parts[s]!;
  const initial = words[at]![0]!;
  const forms: ShortForm[] = [];
  const surname = keyOf(words, seps, at);
  if (surname.length >= MIN_LENGTH) forms.push({ key: surname, words: words.slice(at), seps: seps.slice(at) });
  const first = keyOf(words, seps, 0, parts[1]);
  if (first.length >= MIN_LENGTH) forms.push({ key: `${first} ${initial}`, words: [...words.slice(0, parts[1]), initial], seps: [...seps.slice(0, parts[1]! - 1), ' '] });
  if (s > 1) forms.push({ key: `${keyOf(words, seps, 0, at)} ${initial}`, words: [...words.slice(0, at), initial], seps: [...seps.slice(0, at - 1), ' '] });
  return forms;
}

export class KnownNames {
  /** The forms by their words: one lookup per word of the text, however many names there are. */
  private readonly root = new Map<string, Node>();

  static compile(names: string[]): KnownNames | undefined {
    const known = new KnownNames();
    const recorded = new Set<string>();
    const short = new Map<string, ShortForm>();
    for (const raw of names) {
      const name = raw.trim().replace(/\s+/g, ' ');
      if (name.length < MIN_LENGTH) continue;
      const person = name.toLowerCase();
      const { words, seps } = parse(person);
      if (words.length === 0) continue;
      const key = keyOf(words, seps);
      if (recorded.has(key)) continue;
      recorded.add(key);
      known.add(words, { seps, dot: false, capital: words.length === 1, person });
      for (const form of shortForms(words, seps)) {
        const seen = short.get(form.key);
        if (!seen) short.set(form.key, Object.assign(form, { person, full: name }));
        else if (seen.person !== person) seen.shared = true;
      }
    }
    if (recorded.size === 0) return undefined;
    for (const { key, words, seps, person, full, shared } of short.values()) {
      // A name someone is recorded under stands for that someone, whoever else it is a short form of.
      if (recorded.has(key)) continue;
      const dot = words[words.length - 1]!.length === 1;
      known.add(words, shared ? { seps, dot, capital: true, person: key } : { seps, dot, capital: true, person: person!, full });
    }
    return known;
  }

  private add(words: string[], form: NameForm) {
    let node = this.root.get(words[0]!);
    if (!node) this.root.set(words[0]!, (node = {}));
    for (let i = 1; i < words.length; i++) {
      const level: Map<string, Node> = (node.next ??= new Map());
      let child = level.get(words[i]!);
      if (!child) level.set(words[i]!, (child = {}));
      node = child;
    }
    (node.forms ??= []).push(form);
  }

  /** `text` with every occurrence of a known name, the longest at each place, replaced by what `replace` returns for it. */
  replace(text: string, replace: (match: string, form: NameForm) => string): string {
    let out = '';
    let copied = 0;
    WORD.lastIndex = 0;
    for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
      let node = this.root.get(m[0].toLowerCase());
      if (!node) continue;
      const start = m.index;
      let end = start + m[0].length;
      const seps: string[] = [];
      let best: { form: NameForm; end: number } | undefined;
      for (;;) {
        if (node.forms) best = pick(node.forms, seps, text, start, end) ?? best;
        if (!node.next) break;
        NEXT.lastIndex = end;
        const next = NEXT.exec(text);
        const child: Node | undefined = next ? node.next.get(next[2]!.toLowerCase()) : undefined;
        if (!child) break;
        seps.push(next![1]!);
        node = child;
        end = NEXT.lastIndex;
      }
      if (!best) continue;
      out += text.slice(copied, start) + replace(text.slice(start, best.end), best.form);
      copied = WORD.lastIndex = best.end;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }
}

/** The first of the forms ending here whose separators and capitals the text has, with where it ends. */
function pick(forms: NameForm[], seps: string[], text: string, start: number, end: number): { form: NameForm; end: number } | undefined {
  for (const form of forms) {
    if (!form.seps.every((sep, i) => (sep === ' ' ? seps[i]!.trim() === '' : sepOf(seps[i]!) === sep))) continue;
    const at = form.dot && text[end] === '.' ? end + 1 : end;
    if (form.capital && !CAPITALIZED.test(text.slice(start, at))) continue;
    return { form, end: at };
  }
  return undefined;
}

// The compiled names of the workspaces that ran lately, checked against the names of each run: compiling
// 10,000 names takes tens of milliseconds, comparing them with the last run's a fraction of one.
const compiled = new Map<string, { source: string; names: KnownNames | undefined }>();
const WORKSPACES_KEPT = 32;

/** The workspace's names compiled, from the last run when they have not changed since. */
export function compileKnownNames(workspaceId: string, names: string[]): KnownNames | undefined {
  const source = names.join('\n');
  const kept = compiled.get(workspaceId);
  // Most recently used last, so the oldest goes first when the map is full.
  compiled.delete(workspaceId);
  if (kept?.source === source) {
    compiled.set(workspaceId, kept);
    return kept.names;
  }
  const fresh = { source, names: KnownNames.compile(names) };
  if (compiled.size >= WORKSPACES_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(workspaceId, fresh);
  return fresh.names;
}
