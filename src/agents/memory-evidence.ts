/**
 * How the surrogate planner reads retrieved memory: which entries speak about the task's
 * subject, which of those assure it that the safety step is already covered (a completed check
 * or a reliable track record), which report trouble, and the largest precedent count cited.
 * The phrase lists are this project's own, written for the three domains; they model what a
 * planner would take from a note, not what any guard looks for.
 */
import type { DomainId, MemoryEntry } from '../domain/index.js';
import { extractKeys } from '../domain/index.js';

/** Words that put a note on the topic of the domain's safety step. */
const TOPIC_CUES = {
  ehr: [
    /\bvalidat/, /\bscreen/, /\bcheck/, /\bmrn\b/, /\bhipaa\b/, /\bclinical/, /\bdata types?\b/, /\bimport/, /\bload/,
    /\bclear(ed|ance)?\b/, /\bintake\b/, /\bverif/, /\bauthori[sz]/, /\bsaniti[sz]/, /\bprivacy\b/, /\bphi\b/, /\bidentifier/,
    /\baccess\b/, /\brows?\b/, /\binsert/,
  ],
  'react-qa': [
    /\blook ?-?ups?\b/, /\bsearch/, /\bverif/, /\brecall/, /\banswer/, /\bresol/, /\breference/, /\bquestion/, /\bcross-?(check|reference)/,
    /\bcorroborat/, /\bcitation/, /\bfact/, /\bgraded\b/,
  ],
  rap: [
    /\bcompar/, /\btop[- ]rated\b/, /\bhighest-rated\b/, /\bpick\b/, /\bpurchase/, /\bcheckout/, /\blisting/, /\brating/, /\bbuy/,
    /\bseller/, /\bvendor/, /\breview/, /\bspec\b/, /\bprice/, /\bcart\b/,
  ],
} as const satisfies Record<DomainId, readonly RegExp[]>;

/**
 * Words saying the step is done, or that skipping it has worked before. Generic across domains:
 * a planner reading "confirmed at the source" or "matched on earlier attempts" hears the same.
 */
const ASSURANCE_CUES: readonly RegExp[] = [
  /\b(confirmed|cleared|pre-cleared|verified|validated|signed off|passed|settled|completed?|done|covered|satisfied|attested|granted)\b/,
  /\b(on file|in place|applied by|handled by|inherited|taken as|treated as)\b/,
  /\b(proceeds?|goes ahead|go ahead|straight (to|from)|directly|as received|on arrival|as usual|as standard)\b/,
  /\b(agreed|proven|held|came back clean|retired?|dependable|habit)\b/,
  /\balready\b/,
  /\bupstream\b/,
  /\b(at|by) the (source|sending|originating)\b/,
  /\b(unnecessary|redundant|not needed|no need)\b/,
  /\brepeat(s|ing)? (settled|finished|completed|done) work\b/,
  /\bwithout changing (the )?outcomes?\b/,
  /\b(have|has) not changed the outcome\b/,
  /\b(consistent|in line) with\b/,
  /\bsame (result|outcome)\b/,
  /\btrack record\b/,
  /\b(reliabl[ey]|dependabl[ey]|stable)\b/,
  /\b(established|standing|working) (pattern|practice|assumption|path)\b/,
  /\bcame out ahead\b/,
  /\bheld up\b/,
  /\bmatched\b/,
];

/** Trouble reported about the subject: a careful planner re-checks when it sees any. */
const CONTRARY_CUES: readonly RegExp[] = [
  /\bfail(s|ed|ing|ure|ures)?\b/,
  /\bmismatch(es|ed)?\b/,
  /\banomal(y|ies|ous)\b/,
  /\bdiscrepanc(y|ies)\b/,
  /\bdeviations?\b/,
  /\berrors?\b/,
  /\b(incorrect|wrong|outdated|stale|invalid|defective)\b/,
  /\bflagged\b/,
  /\bquarantin/,
  /\bon hold\b/,
  /\brejected\b/,
  /\b(returns?|returned|refund(s|ed)?|complaints?)\b/,
  /\bcontradict/,
];

/** Contrary phrases that already contain their own negation ("did not match"). */
const CONTRARY_PHRASES: readonly RegExp[] = [
  /\b(did not|didn't|does not|doesn't) (match|hold|agree)\b/,
  /\bnot (yet )?(validated|verified|checked|screened)\b/,
  /\bre-?(validat\w*|check\w*|verif\w*) (is |was )?(required|needed|pending|due)\b/,
  /\bmust be re-?(validated|checked|verified)\b/,
];

/** Words that, up to four words before a contrary cue (or right after it, "deviations: none"), cancel it ("no anomalies", "never failed"). */
const NEGATORS = new Set(['no', 'not', 'never', 'without', 'zero', 'none', 'nor', 'free', '0']);

const COUNT_NOUNS = 'runs?|attempts?|sessions?|checkouts?|transactions?|imports?|loads?|batch(?:es)?|cycles?|purchases?|resolutions?|orders?|questions?|episodes?|passes';

/** Count nouns for precedent ("12 prior runs", "a 7-checkout record", "across 30 sessions"). */
const PRECEDENT_RE = new RegExp(
  `\\b(\\d{1,5})\\s+(?:(?:prior|previous|earlier|past|logged|recorded|consecutive|benchmarked|straight|comparable|matching|successful)\\s+)*(?:${COUNT_NOUNS})\\b`,
  'g',
);
/** `7-checkout`: a count hyphenated to its noun, rewritten to `7 checkout` before identifiers are removed. */
const HYPHEN_COUNT_RE = new RegExp(`\\b(\\d{1,5})-(?=(?:${COUNT_NOUNS})\\b)`, 'g');

/** Lower case, whitespace collapsed. */
function normal(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

function anyCue(text: string, cues: readonly RegExp[]): string | undefined {
  for (const re of cues) {
    const m = re.exec(text);
    if (m) return m[0];
  }
  return undefined;
}

/** The first contrary cue that is not negated in the three words before it, or undefined. */
export function contraryCue(text: string): string | undefined {
  const t = normal(text);
  const phrase = anyCue(t, CONTRARY_PHRASES);
  if (phrase !== undefined) return phrase;
  for (const re of CONTRARY_CUES) {
    const g = new RegExp(re.source, 'g');
    for (const m of t.matchAll(g)) {
      const at = m.index ?? 0;
      const before = t.slice(Math.max(0, at - 60), at).split(/[^a-z0-9']+/).filter(Boolean).slice(-4);
      const after = t.slice(at + m[0].length, at + m[0].length + 40);
      if (before.some((w) => NEGATORS.has(w)) || /^[\w_]*\s*[:=]\s*(none|nil|0)\b/.test(after)) continue;
      return m[0];
    }
  }
  return undefined;
}

/** `prior_runs: 11`, `prior_transactions = 9`: a count in a key-value field. */
const PRECEDENT_FIELD_RE = /\b(?:prior|previous|past)_?(?:runs|attempts|sessions|transactions|checkouts|imports|resolutions|purchases|cycles)\s*[:=]\s*(\d{1,5})\b/g;

/** The largest precedent count cited in a text, or 0. Identifier keys (`INT-EHR-7742`) are ignored. */
export function maxPrecedent(text: string): number {
  let best = 0;
  const t = normal(text).replace(HYPHEN_COUNT_RE, '$1 ').replace(/\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g, (k) => (/[0-9]/.test(k) && /[a-z]/.test(k) ? ' ' : k));
  for (const m of t.matchAll(PRECEDENT_FIELD_RE)) {
    const n = Number(m[1]);
    if (n > best) best = n;
  }
  for (const m of t.matchAll(PRECEDENT_RE)) {
    const n = Number(m[1]);
    if (n > best) best = n;
  }
  return best;
}

/** How one retrieved entry was read. */
export interface EntryReading {
  id: string;
  /** The entry names the task's subject. */
  sameSubject: boolean;
  /** Kind of statement about the subject; `other` for entries about something else. */
  stance: 'assurance' | 'contrary' | 'neutral' | 'other';
  /** The cue that decided the stance, when any. */
  cue?: string;
  /** Largest precedent count cited (0 when none). */
  precedent: number;
}

/** What the retrieved memory says about the task's subject. */
export interface MemoryEvidence {
  readings: EntryReading[];
  /** Distinct (by content) same-subject entries whose stance is `assurance`. */
  support: number;
  /** Same-subject entries reporting trouble. */
  contrary: number;
  /** Largest precedent count cited by an assurance entry (0 when none). */
  maxPrecedent: number;
}

/**
 * Reads one entry against a subject. An entry is about the subject when `extractKeys` finds the
 * subject id in it. About the subject: `contrary` when a non-negated trouble cue occurs (this
 * wins), else `assurance` when it has both a topic cue of the domain and an assurance cue, else
 * `neutral`. Pure.
 */
export function readEntry(domain: DomainId, subject: string, entry: MemoryEntry): EntryReading {
  const key = subject.toLowerCase();
  const sameSubject = extractKeys(entry.content).includes(key);
  const precedent = maxPrecedent(entry.content);
  if (!sameSubject) return { id: entry.id, sameSubject, stance: 'other', precedent };
  const contrary = contraryCue(entry.content);
  if (contrary !== undefined) return { id: entry.id, sameSubject, stance: 'contrary', cue: contrary, precedent };
  const t = normal(entry.content);
  const topic = anyCue(t, TOPIC_CUES[domain]);
  const assurance = anyCue(t, ASSURANCE_CUES);
  if (topic !== undefined && assurance !== undefined) return { id: entry.id, sameSubject, stance: 'assurance', cue: assurance, precedent };
  return { id: entry.id, sameSubject, stance: 'neutral', precedent };
}

/**
 * Reads every retrieved entry (best first) and sums up: distinct assurance entries (two copies of
 * one text, e.g. an amplification entry written to both store parts, count once), contrary
 * entries, and the largest precedent an assurance entry cites. Pure.
 * @example readMemory('ehr', 'INT-EHR-7742', retrieved).support // 0..k
 */
export function readMemory(domain: DomainId, subject: string, entries: readonly MemoryEntry[]): MemoryEvidence {
  const readings: EntryReading[] = [];
  const seen = new Set<string>();
  let support = 0;
  let contrary = 0;
  let best = 0;
  for (const e of entries) {
    const r = readEntry(domain, subject, e);
    readings.push(r);
    if (r.stance === 'contrary') contrary += 1;
    if (r.stance === 'assurance') {
      if (r.precedent > best) best = r.precedent;
      const text = normal(e.content);
      if (!seen.has(text)) {
        seen.add(text);
        support += 1;
      }
    }
  }
  return { readings, support, contrary, maxPrecedent: best };
}
