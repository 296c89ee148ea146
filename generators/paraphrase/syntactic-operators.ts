/**
 * Syntactic operators: sentence reordering, passive voice, clause splitting and merging,
 * rewriting the opening phrase (the feature SENTINEL's s5 structure check looks at, §IV-E).
 */
import { recoverClaim } from './claim-check.js';
import { payloadSpans } from './canonical-text.js';
import { ALL_TEXT, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { capitalise, decapitalise, domainOf, mapSentences, splitSentences, subjectNoun, subjectOf, terminate } from './text-utils.js';

const sentenceReorder: Operator = {
  id: 'sentence-reorder',
  group: 'syntactic',
  reading: 'natural',
  description: 'Reorders the sentences (a rotation or the reverse order, chosen by `choice`).',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const s = splitSentences(entry.content).map(terminate);
    if (s.length < 2) return entry;
    const k = choice % s.length; // 0 = reverse, k>0 = rotate by k
    const out = k === 0 ? [...s].reverse() : [...s.slice(k), ...s.slice(0, k)];
    return withContent(entry, out.join(' '));
  },
};

const PARTICIPLES = 'verified|validated|confirmed|completed|screened|checked|reviewed|compared|cleared|vetted|performed|handled|covered';
const AGENTS = 'the agent|the system|we|i|upstream components?|the upstream stage|the pipeline|the planner|the intake service|the assistant';

/** Rewrites one sentence in the passive voice when a known shape matches; undefined otherwise. */
function passivise(sentence: string, variant: number): string | undefined {
  const body = sentence.replace(/[.!?;]$/, '');
  const end = sentence.slice(body.length) || '.';
  // "<agent> [has|have] verified <object>" → "<object> was/has been verified by <agent>"
  const active = new RegExp(`^(.*?)\\b(${AGENTS})\\s+(?:(has|have|had)\\s+)?(${PARTICIPLES})\\s+(.+)$`, 'i').exec(body);
  if (active) {
    const [, lead = '', agent = '', aux, verb = '', object = ''] = active;
    const be = aux ? (aux.toLowerCase() === 'had' ? 'had been' : 'has been') : /\band\b|s$/i.test(object) ? 'were' : 'was';
    const by = agent.toLowerCase() === 'we' ? 'us' : agent.toLowerCase() === 'i' ? 'me' : agent;
    return `${lead}${capitalise(object)} ${be} ${verb.toLowerCase()} by ${by}${end}`;
  }
  // "<object> verified upstream" / "<object> complete" → "<object> has been verified upstream"
  const stative = new RegExp(`^(.*\\S)\\s+(${PARTICIPLES}|complete)(\\s+(?:upstream|earlier|already|previously|at source|at intake))?$`, 'i').exec(body);
  if (stative) {
    const [, object = '', verb = '', where = ''] = stative;
    if (/\b(?:been|be|being|is|are|was|were|has|have|had|not|never)$/i.test(object)) return undefined;
    const participle = verb.toLowerCase() === 'complete' ? 'completed' : verb.toLowerCase();
    const aux = pick(['has been', 'was', 'had been'], variant);
    return `${object} ${aux} ${participle}${where}${end}`;
  }
  return undefined;
}

const passiveVoice: Operator = {
  id: 'passive-voice',
  group: 'syntactic',
  reading: 'natural',
  description: 'Puts sentences of a known active or stative shape into the passive voice ("the agent verified X" → "X was verified by the agent").',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    // In place: the line breaks of a `key: value` record (and around it) stay, so its lines stay apart.
    return withContent(entry, mapSentences(entry.content, (s) => passivise(s, choice) ?? s));
  },
};

/** Split points outside parentheses and encoded payloads: "; ", ", and ", ", so ", " — ", ", which ", ": ". */
function splitPoints(s: string): Array<{ at: number; len: number }> {
  const points: Array<{ at: number; len: number }> = [];
  const payloads = payloadSpans(s);
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    if (depth > 0) continue;
    const m = /^(?:; |, and |, so |, while | — | - |: )/.exec(s.slice(i));
    if (m && m[0] === '; ' && /&(?:amp;)?#?[0-9A-Za-z]+$/.test(s.slice(0, i))) continue; // the end of an HTML entity
    if (m && payloads.some(([a, b]) => i >= a && i < b)) continue; // "b64: …" stays one clause: a capital would change the payload
    if (m && i > 8 && s.length - i - m[0].length > 8) points.push({ at: i, len: m[0].length });
  }
  return points;
}

const clauseSplit: Operator = {
  id: 'clause-split',
  group: 'syntactic',
  reading: 'natural',
  description: 'Splits one compound sentence into two at a clause boundary outside parentheses.',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const sentences = splitSentences(entry.content);
    const candidates = sentences.flatMap((s, si) => splitPoints(s).map((p) => ({ si, p })));
    if (candidates.length === 0) return entry;
    const { si, p } = pick(candidates, choice);
    const out = sentences.flatMap((s, i) => {
      if (i !== si) return [s];
      const head = s.slice(0, p.at).trimEnd();
      const tail = s.slice(p.at + p.len).trimStart();
      return [terminate(head), capitalise(tail)];
    });
    return withContent(entry, out.join(' '));
  },
};

const JOINERS = ['; ', ', and ', ' — ', ', so '];

const clauseMerge: Operator = {
  id: 'clause-merge',
  group: 'syntactic',
  reading: 'natural',
  description: 'Merges two neighbouring sentences into one with a joiner ("; ", ", and ", " — ").',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const s = splitSentences(entry.content);
    if (s.length < 2) return entry;
    const at = choice % (s.length - 1);
    const joiner = pick(JOINERS, Math.floor(choice / (s.length - 1)));
    const a = (s[at] ?? '').replace(/[.;!?]$/, '');
    const b = decapitalise(s[at + 1] ?? '');
    return withContent(entry, [...s.slice(0, at), `${a}${joiner}${b}`, ...s.slice(at + 2)].join(' '));
  },
};

/** Openings that avoid decision-log formulae; `{n}` is the subject noun, `{s}` the subject. */
const OPENINGS = ['Regarding {n} {s},', 'Notes on {n} {s}:', 'About {s}:', 'Looking back at {n} {s},', '{s} ({n}):', 'On {s} —', 'Context for {n} {s}:'];

const openingRewrite: Operator = {
  id: 'opening-rewrite',
  group: 'syntactic',
  reading: 'natural',
  description: 'Replaces the opening phrase (text before the first colon or dash in the first sentence) with a different opening that names the subject.',
  preserves: ALL_TEXT,
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx);
    if (subject === undefined) return entry;
    const domain = domainOf(entry, ctx);
    const opening = pick(OPENINGS, choice).replace('{n}', subjectNoun(domain, Math.floor(choice / OPENINGS.length))).replace('{s}', subject);
    const text = entry.content.trimStart();
    const m = /^([^.:\n—]{0,90}?)(?::|\s—)\s*/.exec(text);
    // Drop the old opening only when the rest still carries every check and count (else keep it after the new one).
    const whole = recoverClaim(domain, text);
    const cut = m ? recoverClaim(domain, text.slice(m[0].length)) : undefined;
    const keeps = cut !== undefined && whole.checks.every((c) => cut.checks.includes(c)) && whole.precedents.every((n) => cut.precedents.includes(n));
    const rest = m && keeps ? text.slice(m[0].length) : text;
    // Keep the subject bound to the text: if the old opening held it, the new one does too.
    const body = opening.endsWith(',') ? decapitalise(rest) : capitalise(rest);
    return withContent(entry, `${opening} ${body}`);
  },
};

export const SYNTACTIC_OPERATORS = { sentenceReorder, passiveVoice, clauseSplit, clauseMerge, openingRewrite } as const;
