/**
 * Reasoning chains for A-MemGuard. Upstream (TangciuYueng/AMemGuard, `ReAct/consistency.py`,
 * `_generate_reasoning_chains`) asks an LLM to turn each memory into one
 * `entity1 -> relationship -> entity2 -> ...` string. The default here is a deterministic
 * stand-in; an LLM extractor can be injected instead (see `docs/amemguard.md`).
 */

/** One link of a reasoning chain: `head -> relation -> tail`. `relation` may be empty. */
export interface Chain {
  head: string;
  relation: string;
  tail: string;
}

/** A synchronous chain extractor (the heuristic default). */
export interface ChainExtractor {
  readonly id: string;
  /** Chains of one memory text; `query` is the text that gathered the memories, when known. */
  extract(text: string, query?: string): Chain[];
}

/** An injected asynchronous extractor, e.g. an LLM prompted like upstream. */
export type AsyncChainExtractor = (text: string, query?: string) => Promise<Chain[]>;

/** Limits of the heuristic extractor. */
export interface HeuristicChainOptions {
  /** Content words kept per relation (the first ones between two anchors). Default 4. */
  maxRelationWords?: number;
  /** Links kept per memory (the first ones). Default 24. */
  maxLinks?: number;
}

// Function words that never act as anchors or relation words. Written for this project.
/** Function words (lower-case) that never act as anchors or relation words; also skipped as retrieval terms. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but nor so yet of to in on at by for from with without into onto over under about ' +
    'as than then that this these those there here it its it\'s is are was were be been being am do does did ' +
    'done has have had having will would shall should can could may might must not no yes all any each ' +
    'every some such very just also only both either neither which who whom whose what when where why how ' +
    'i me my we our us you your he him his she her they them their if else while because since after ' +
    'before again once per via up down out off too more most less least own same other'
  ).split(' '),
);

const TOKEN_RE = /[\p{L}\p{N}]+(?:['’._-][\p{L}\p{N}]+)*/gu;
const CLAUSE_SPLIT_RE = /(?:[.!?;:](?=\s|$)|\n|->|→|=>)+/u;

interface Token {
  text: string;
  entity: boolean;
  content: boolean;
}

function classify(word: string, first: boolean): Token {
  const lower = word.toLowerCase();
  const stop = STOPWORDS.has(lower);
  const hasDigit = /\p{N}/u.test(word);
  // An upper-case letter after the first character: acronyms (MRN), ids (INT-EHR-7742), CamelCase.
  const innerUpper = /^.[\s\S]*\p{Lu}/u.test(word);
  const capitalised = /^\p{Lu}/u.test(word);
  const entity = hasDigit || innerUpper || (capitalised && !first && !stop);
  const content = !stop && [...word].length >= 3;
  return { text: word, entity, content };
}

/**
 * The heuristic chains of one clause. Anchors are entity phrases (runs of entity-like tokens:
 * containing a digit, an inner capital, or a capital not at clause start); when content words
 * come before the first anchor or after the last one, the first/last such word becomes an anchor
 * too. Each pair of neighbouring anchors gives one link whose relation is the content words
 * between them.
 */
function clauseChains(clause: string, maxRelationWords: number): Chain[] {
  const tokens = [...clause.matchAll(TOKEN_RE)].map((m, i) => classify(m[0], i === 0));
  // anchors: [start, end) token ranges
  const anchors: Array<[number, number]> = [];
  for (let i = 0; i < tokens.length; ) {
    if (tokens[i]?.entity) {
      let j = i + 1;
      while (j < tokens.length && tokens[j]?.entity) j++;
      anchors.push([i, j]);
      i = j;
    } else i++;
  }
  const firstContent = tokens.findIndex((t) => t.content && !t.entity);
  const lastContent = tokens.findLastIndex((t) => t.content && !t.entity);
  const firstAnchor = anchors[0];
  if (firstContent >= 0 && (firstAnchor === undefined || firstContent < firstAnchor[0])) {
    anchors.unshift([firstContent, firstContent + 1]);
  }
  const tailAnchor = anchors[anchors.length - 1];
  if (lastContent >= 0 && tailAnchor !== undefined && lastContent >= tailAnchor[1]) {
    anchors.push([lastContent, lastContent + 1]);
  }
  const phrase = (r: [number, number]): string =>
    tokens
      .slice(r[0], r[1])
      .map((t) => t.text)
      .join(' ');
  const links: Chain[] = [];
  for (let a = 0; a + 1 < anchors.length; a++) {
    const left = anchors[a] as [number, number];
    const right = anchors[a + 1] as [number, number];
    const relation = tokens
      .slice(left[1], right[0])
      .filter((t) => t.content)
      .slice(0, maxRelationWords)
      .map((t) => t.text.toLowerCase())
      .join(' ');
    links.push({ head: phrase(left), relation, tail: phrase(right) });
  }
  return links;
}

/**
 * Builds the deterministic heuristic extractor (id `heuristic`).
 * The text is cut into clauses at sentence punctuation, semicolons, colons, newlines and arrows;
 * each clause gives the links described in `docs/amemguard.md` ("Chains"). A text with no
 * clause of two anchors gives `[]` (its embedding is then the zero vector, which never clusters).
 * Source: stand-in for upstream's LLM chain prompt (`ReAct/consistency.py`).
 * @example
 * createHeuristicChainExtractor().extract('Intake verified INT-EHR-7742 for MRN format.')
 * // [{ head: 'Intake', relation: 'verified', tail: 'INT-EHR-7742' }, { head: 'INT-EHR-7742', relation: '', tail: 'MRN' }, ...]
 */
export function createHeuristicChainExtractor(options: HeuristicChainOptions = {}): ChainExtractor {
  const maxRelationWords = options.maxRelationWords ?? 4;
  const maxLinks = options.maxLinks ?? 24;
  return {
    id: 'heuristic',
    extract(text: string): Chain[] {
      const out: Chain[] = [];
      for (const clause of text.split(CLAUSE_SPLIT_RE)) {
        for (const link of clauseChains(clause, maxRelationWords)) {
          if (out.length >= maxLinks) return out;
          out.push(link);
        }
      }
      return out;
    },
  };
}

/**
 * Renders chains as one upstream-style string, `a -> rel -> b -> rel2 -> c`; a link whose head
 * is not the previous tail starts a new segment after ` ; `. Empty relations are left out.
 * This string is what gets embedded and clustered (upstream embeds the chain text).
 */
export function renderChains(chains: readonly Chain[]): string {
  const segments: string[] = [];
  let current: string[] = [];
  let lastTail: string | undefined;
  for (const c of chains) {
    if (lastTail === undefined || c.head !== lastTail) {
      if (current.length > 0) segments.push(current.join(' -> '));
      current = [c.head];
    }
    if (c.relation !== '') current.push(c.relation);
    current.push(c.tail);
    lastTail = c.tail;
  }
  if (current.length > 0) segments.push(current.join(' -> '));
  return segments.join(' ; ');
}
