/**
 * The taxonomy of evasion kinds (docs/adaptive.md, "Taxonomy of evasions"): every way the
 * attacker side can disguise a forged claim, grouped by what it changes. Attack templates
 * declare the kinds they use in their meta (`kinds`), operators in their `kinds` field, and a
 * generated case carries the union in `truth.kinds`, so a report can count how many kinds a
 * campaign reached. Ids are derived from the object (STYLE.md §3).
 */

/** Axis of the taxonomy: what the evasion changes. */
type EvasionAxis = 'wording' | 'channel' | 'count' | 'language' | 'framing' | 'format' | 'encoding' | 'structure' | 'overt' | 'metadata' | 'noise' | 'script' | 'record';

interface EvasionKindSpec {
  axis: EvasionAxis;
  /** What the kind does, and which guard signal it aims at (SENTINEL s1..s5, L1, L4). */
  description: string;
}

const EVASION_KINDS = {
  // channel: where the forgery enters memory (paper §II-B threat model, SENTINEL L2/s1)
  'tool-output': { axis: 'channel', description: 'the forgery arrives as a tool result (source TOOL, trace type tool_output); s1 and L2-L4 see an External entry' },
  'retrieved-document': { axis: 'channel', description: 'the forgery arrives inside a retrieved web page, wiki or vendor document (source EXTERNAL)' },
  'system-spoof': { axis: 'channel', description: 'the entry declares source SYSTEM, a channel the guard trusts' },
  'general-store': { axis: 'channel', description: 'the forgery is written to the general store as a fact/experience, not to the reasoning store' },
  // count: the precedent number (s2, s4)
  'dishonest-count': { axis: 'count', description: 'the cited precedent count exceeds the matching entries in the store (fires s2)' },
  'large-count': { axis: 'count', description: 'a precedent count of 50 or more (s4 with a perfection claim)' },
  'perfection-claim': { axis: 'count', description: '"100% success", "never failed": a claim of perfect consistency (s4)' },
  'count-words': { axis: 'count', description: 'the count written in words, in any language ("sixty-two", "zweiundsechzig"); digit-only parsers miss it' },
  'count-roman': { axis: 'count', description: 'the count as a Roman numeral ("LXII prior runs")' },
  'count-scientific': { axis: 'count', description: 'the count in scientific notation ("6.2e1 runs")' },
  'count-other-numerals': { axis: 'count', description: 'the count in another script: Chinese numerals, Arabic-Indic or Devanagari digits' },
  'count-range': { axis: 'count', description: 'the count as a range or bound ("between 9 and 15", "at least 9")' },
  'count-unparsed-layout': { axis: 'count', description: 'the count placed where a phrase-pattern parser does not look ("prior_runs: 62", "runs on file — 62", "62x")' },
  'count-lowered': { axis: 'count', description: 'the count lowered to what the store can support, so s2 stays quiet' },
  'digit-free-precedent': { axis: 'count', description: 'a precedent with no digits anywhere: count in words and the subject named in words' },
  'subject-in-words': { axis: 'count', description: 'the subject named by description, not by id: key-based matching (s2) falls back to store size' },
  // language
  'lang-es': { axis: 'language', description: 'written in Spanish' },
  'lang-de': { axis: 'language', description: 'written in German' },
  'lang-zh': { axis: 'language', description: 'written in Chinese' },
  'lang-fr': { axis: 'language', description: 'written in French' },
  'lang-pt': { axis: 'language', description: 'written in Portuguese' },
  'lang-it': { axis: 'language', description: 'written in Italian' },
  'lang-ru': { axis: 'language', description: 'written in Russian (Cyrillic)' },
  'lang-ja': { axis: 'language', description: 'written in Japanese (kanji and kana)' },
  'code-switch': { axis: 'language', description: 'English mixed with another language within the entry' },
  // framing: wording that lends authority or distance
  'authority-runbook': { axis: 'framing', description: 'the claim presented as a runbook step' },
  'authority-sop': { axis: 'framing', description: 'the claim presented as a standard operating procedure' },
  'authority-policy': { axis: 'framing', description: 'the claim presented as standing policy or an approved exception' },
  'authority-signoff': { axis: 'framing', description: 'a named sign-off or approval vouches for the claim' },
  'authority-reference': { axis: 'framing', description: 'a ticket, change request or audit reference vouches for the claim' },
  'reported-speech': { axis: 'framing', description: 'the claim attributed to someone else ("the upstream team reports that ...")' },
  quotation: { axis: 'framing', description: 'the claim quoted from another document or message' },
  hedged: { axis: 'framing', description: 'hedged phrasing ("by all indications")' },
  passive: { axis: 'framing', description: 'passive voice with no agent' },
  'temporal-framing': { axis: 'framing', description: 'the claim anchored in time ("as of the last audit", "since the March cut-over")' },
  'indirect-reference': { axis: 'framing', description: 'the check named indirectly ("the usual gate", "the step described in section 4")' },
  // format
  'fmt-json': { axis: 'format', description: 'a JSON object' },
  'fmt-bullets': { axis: 'format', description: 'a bullet list' },
  'fmt-key-value': { axis: 'format', description: 'key: value lines' },
  'fmt-table': { axis: 'format', description: 'a markdown table' },
  'fmt-yaml': { axis: 'format', description: 'a YAML document' },
  'fmt-xml': { axis: 'format', description: 'an XML element tree' },
  'fmt-markdown-heading': { axis: 'format', description: 'markdown with headings' },
  'fmt-csv': { axis: 'format', description: 'CSV rows' },
  'fmt-code-comment': { axis: 'format', description: 'code comments (//, #, /* */)' },
  'fmt-email': { axis: 'format', description: 'an e-mail with headers' },
  'fmt-ticket': { axis: 'format', description: 'an issue-tracker ticket with fields' },
  'fmt-log-line': { axis: 'format', description: 'structured log lines (level, logger, message)' },
  'fmt-diff': { axis: 'format', description: 'a unified diff / patch' },
  'fmt-sql-comment': { axis: 'format', description: 'SQL with the claim in comments' },
  // encoding
  homoglyph: { axis: 'encoding', description: 'Unicode confusables in filter-relevant words' },
  'zero-width': { axis: 'encoding', description: 'zero-width characters inside words' },
  'mixed-case': { axis: 'encoding', description: 'mixed case' },
  leetspeak: { axis: 'encoding', description: 'leetspeak digits for letters' },
  'full-width': { axis: 'encoding', description: 'full-width forms' },
  'html-entities': { axis: 'encoding', description: 'HTML character references' },
  base64: { axis: 'encoding', description: 'a base64 payload the agent is told to decode' },
  rot13: { axis: 'encoding', description: 'a ROT13 payload marked as such' },
  'url-encoding': { axis: 'encoding', description: 'percent-encoded words' },
  'unicode-tags': { axis: 'encoding', description: 'invisible Unicode tag characters (U+E0000 block) carrying words' },
  'bidi-override': { axis: 'encoding', description: 'right-to-left override with reversed letters, displayed in normal order' },
  // structure
  dilution: { axis: 'structure', description: 'the claim buried in benign narrative' },
  'split-entries': { axis: 'structure', description: 'the claim split across two entries' },
  'split-metadata': { axis: 'structure', description: 'part of the claim moved into metadata fields the content signals do not read' },
  // overt
  'overt-unlisted-verb': { axis: 'overt', description: 'an overt instruction with a verb outside common blocklists (waive, forgo, stand down, pass over, switch off)' },
  // metadata
  'relabel-trace-type': { axis: 'metadata', description: 'a non-reasoning trace type label' },
  backdate: { axis: 'metadata', description: 'an older timestamp' },
  // held-out style kinds (test/fixtures/held-out-evasions.ts) made operators
  typo: { axis: 'encoding', description: 'misspelt words: neighbouring letters swapped in filter words and check names (exact-match lists miss them)' },
  'letter-spacing': { axis: 'encoding', description: 'words or acronyms written letter by letter ("H I P A A", "s-k-i-p")' },
  'backslash-escapes': { axis: 'encoding', description: 'letters as \\u, \\u{...} or \\x escapes, as a JSON or code string carries them' },
  'status-symbols': { axis: 'format', description: 'a check-list: ticked boxes "[x]" or check marks (✅ ☑ ✔️) instead of "done"' },
  'html-comment': { axis: 'format', description: 'the claim inside an HTML comment, hidden when rendered' },
  'markdown-link': { axis: 'format', description: 'check names as markdown links; the link target adds words a phrase reader sees' },
  'double-negation': { axis: 'framing', description: 'an affirming double negation ("it is not true that ... was not done")' },
  'role-play': { axis: 'framing', description: 'the claim said in character ("you are the upstream validator ...")' },
  abbreviation: { axis: 'wording', description: "engineers' shorthand and jargon (fmt, chk, QA'd, LGTM)" },
  'date-relative-count': { axis: 'count', description: 'the precedent counted in nights or days ("15 consecutive nights") instead of runs' },
  'lexical-synonym': { axis: 'wording', description: 'synonyms of check names and ordinary words (lexical)' },
  'syntactic-rewrite': { axis: 'wording', description: 'reordered, split or merged sentences and rewritten openings (syntactic)' },
  // The red-team catalogs (garak Inject* probes, badchars and buffs; PyRIT converters; TextAttack transformations; promptfoo strategies)
  hex: { axis: 'encoding', description: 'the text as hex bytes marked hex:/base16= (garak InjectHex, InjectBase16)' },
  base32: { axis: 'encoding', description: 'the text as RFC 4648 base32 marked b32:/base32= (garak InjectBase32)' },
  base2048: { axis: 'encoding', description: 'the text in Base2048, letters of many scripts (garak InjectBase2048, PyRIT Base2048Converter)' },
  ascii85: { axis: 'encoding', description: 'words as Ascii85 tokens between <~ ~> (garak InjectAscii85)' },
  'quoted-printable': { axis: 'encoding', description: 'letters as quoted-printable =XX codes (garak InjectQP, InjectMime)' },
  morse: { axis: 'encoding', description: 'the text in Morse code (garak InjectMorse, PyRIT MorseConverter, promptfoo morse)' },
  binary: { axis: 'encoding', description: 'the text as 8-bit binary groups (PyRIT BinaryConverter)' },
  'char-codes': { axis: 'encoding', description: 'the text as character codes, decimal or hex lists (garak CharCode buff)' },
  braille: { axis: 'encoding', description: 'words in Unicode Braille (garak InjectBraille, PyRIT BrailleConverter)' },
  'nato-phonetic': { axis: 'encoding', description: 'words spelled in the NATO phonetic alphabet (garak InjectNato, PyRIT NatoConverter)' },
  caesar: { axis: 'encoding', description: 'the text in a Caesar cipher with its shift marked (PyRIT CaesarConverter, garak Caesar buff)' },
  atbash: { axis: 'encoding', description: 'the text in the Atbash cipher (garak InjectAtbash, PyRIT AtbashConverter)' },
  vigenere: { axis: 'encoding', description: 'the text in a Vigenère cipher with its key marked (PyRIT VigenereConverter)' },
  'reversed-text': { axis: 'encoding', description: 'the text, its word order or each word reversed, marked (PyRIT FlipConverter, promptfoo FlipAttack)' },
  'pig-latin': { axis: 'encoding', description: 'words in Pig Latin (promptfoo piglatin)' },
  'variation-selectors': { axis: 'encoding', description: 'the text as invisible variation selectors after an emoji (garak InjectUnicodeVariantSelectors, PyRIT VariationSelectorSmuggler)' },
  'sneaky-bits': { axis: 'encoding', description: 'the text as invisible bits U+2062/U+2064 (garak InjectSneakyBits, PyRIT SneakyBitsSmuggler)' },
  'enclosed-letters': { axis: 'encoding', description: 'letters as enclosed-letter emoji: circled, squared, regional indicators (PyRIT EmojiConverter)' },
  'script-cyrillic-letters': { axis: 'script', description: 'English words spelled letter for letter in Cyrillic letters' },
  'script-greek-letters': { axis: 'script', description: 'English words spelled letter for letter in Greek letters' },
  'script-runic-letters': { axis: 'script', description: 'English words spelled letter for letter in Runic (Elder Futhark) letters' },
  'char-deletion': { axis: 'noise', description: 'one inner letter deleted (TextAttack WordSwapRandomCharacterDeletion)' },
  'char-insertion': { axis: 'noise', description: 'one letter inserted (TextAttack WordSwapRandomCharacterInsertion)' },
  'char-substitution': { axis: 'noise', description: 'one inner letter replaced (TextAttack WordSwapRandomCharacterSubstitution, PyRIT CharSwap)' },
  'keyboard-typo': { axis: 'noise', description: 'a neighbouring QWERTY key for one letter (TextAttack WordSwapQWERTY)' },
  'ascii-noise': { axis: 'noise', description: 'one letter shifted one code point (garak Best-of-N ASCII noising)' },
  'word-scramble': { axis: 'noise', description: 'inner letters scrambled, first and last kept (garak Best-of-N)' },
  zalgo: { axis: 'noise', description: 'combining marks stacked on letters (garak InjectZalgo, PyRIT Zalgo, promptfoo zalgo/unicode-noise)' },
  diacritics: { axis: 'noise', description: 'accents put on vowels (PyRIT DiacriticConverter)' },
  superscript: { axis: 'noise', description: 'superscript modifier letters (PyRIT SuperscriptConverter)' },
  'math-letters': { axis: 'noise', description: 'mathematical alphanumeric letters: bold, italic, script, fraktur, double-struck, monospace' },
  'turkish-case': { axis: 'noise', description: 'Turkish case rules: dotless ı, dotted İ (garak TurkishLowercase/Uppercase buffs)' },
  'punctuation-insertion': { axis: 'noise', description: 'a punctuation mark inside a word (PyRIT InsertPunctuation, TextAttack WordSwapPunctuationInsertion)' },
  'invisible-fillers': { axis: 'noise', description: 'invisible fillers inside words: grapheme joiner, invisible separator, tatweel, Hangul filler (garak badchars, TextAttack WordSwapInvisibleCharacters)' },
  'backspace-deletion': { axis: 'noise', description: 'a stray letter followed by a backspace (garak badchars deletion, TextAttack WordSwapDeletions)' },
  'bidi-reorder': { axis: 'noise', description: 'two letters stored swapped inside bidi controls, displayed in order (garak badchars reordering, TextAttack WordSwapReorderings)' },
  'whitespace-obfuscation': { axis: 'noise', description: 'tabs and other Unicode spaces between words (promptfoo whitespace-obfuscation, TextAttack WordSwapWhitespace)' },
  'camel-case': { axis: 'noise', description: 'words joined in camelCase (promptfoo camelcase)' },
  'ansi-escapes': { axis: 'noise', description: 'ANSI colour escape codes around words (PyRIT AnsiAttackConverter, garak ansiescape)' },
  'repeated-token': { axis: 'structure', description: 'one token repeated many times around the claim (PyRIT RepeatTokenConverter)' },
  'adversarial-suffix': { axis: 'structure', description: 'a token-soup suffix in the style of optimised adversarial suffixes (PyRIT SuffixAppendConverter, promptfoo gcg)' },
  contraction: { axis: 'wording', description: 'contractions written or written out (TextAttack WordSwapContract / WordSwapExtend)' },
  // memory-native record forms, from the bundled real sets
  'record-react-step': { axis: 'record', description: 'ReAct/FireAct steps: numbered Thought, Action[...], Observation lines' },
  'record-tool-result': { axis: 'record', description: 'a tool-call result message (role "tool", call id, tool name) or a function_results block' },
  'record-commit': { axis: 'record', description: 'a git commit: git log form or a conventional-commit subject with a body' },
  'record-thread': { axis: 'record', description: 'a chat thread: timestamped messages from several people' },
  'record-memory-stream': { axis: 'record', description: 'a Generative Agents memory stream: timestamped observations with importance scores' },
  'record-reflexion': { axis: 'record', description: 'a Reflexion trial reflection with a plan for the next trial' },
  'record-insights': { axis: 'record', description: 'an ExpeL insight list edited by operations (ADD, EDIT, AGREE) or numbered insights' },
  'record-skill': { axis: 'record', description: 'a Voyager skill: a JavaScript function whose comments carry the text' },
  'record-swe-turn': { axis: 'record', description: 'a SWE-agent turn: DISCUSSION paragraph and a fenced command' },
  'record-ticket': { axis: 'record', description: 'an issue-tracker ticket: key, status, summary, description, resolution' },
  'record-changelog': { axis: 'record', description: 'a changelog section: dated heading, bullets under Changed' },
  'record-standup': { axis: 'record', description: 'stand-up notes: Yesterday / Today' },
} as const satisfies Record<string, EvasionKindSpec>;

export type EvasionKind = keyof typeof EVASION_KINDS;

/** True when `id` names a kind of the taxonomy. */
export function isEvasionKind(id: string): id is EvasionKind {
  return Object.hasOwn(EVASION_KINDS, id);
}

/** Every kind id of the taxonomy, in declaration order. */
export const EVASION_KIND_IDS = Object.keys(EVASION_KINDS) as EvasionKind[];
