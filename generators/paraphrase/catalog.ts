/**
 * The catalog coverage matrix: every text converter or transformation of four
 * public red-team catalogs, mapped to the operators that produce its kind here, or marked with
 * why it has none. Sources, read from the repositories:
 * - PyRIT: `pyrit/converter/__init__.py` `__all__` (Azure/PyRIT);
 * - garak: the `Inject*` probes of `garak/probes/encoding.py`, `garak/probes/badchars.py`
 *   (its four categories), the buffs under `garak/buffs/`, and the phrasing probes
 *   (PastTense, FutureTense) (NVIDIA/garak);
 * - TextAttack: `textattack/transformations/` (word swaps, insertions, merges, deletions,
 *   sentence transformations) (QData/TextAttack);
 * - promptfoo: `src/redteam/constants/strategies.ts` (ALL_STRATEGIES, ENCODING_STRATEGIES,
 *   the other-encodings collection), the text-mutation strategies of
 *   `src/redteam/strategies/textMutation.ts` and the strategy files read from
 *   `src/redteam/strategies/` (promptfoo/promptfoo).
 * The mapping text is this project's; names are the catalogs' own.
 */
import { WITHHELD_OPERATORS } from './operators.js';
import type { OperatorId } from './operators.js';

/** An operator of the registry, or one built but withheld from it (`WITHHELD_OPERATORS`). */
type CatalogOperatorId = OperatorId | keyof typeof WITHHELD_OPERATORS;

/** True when the operator is built but withheld from the registry. */
export function isWithheld(id: string): boolean {
  return Object.hasOwn(WITHHELD_OPERATORS, id);
}

export const CATALOGS = ['pyrit', 'garak', 'textattack', 'promptfoo'] as const;
type CatalogId = (typeof CATALOGS)[number];

/** Why an entry has no operator. */
export const NOT_APPLICABLE_REASONS = {
  image: 'works on images, not on a stored text entry',
  audio: 'works on audio, not on a stored text entry',
  video: 'works on video, not on a stored text entry',
  file: 'writes a file format (PDF, Word), not a stored text entry',
  'multi-turn': 'a multi-turn conversation strategy; a memory entry is written once',
  'not-a-transform': 'not a transformation of its own (a base class, a word selector, a composition or a replay of others)',
  'changes-claim': 'changes what the entry asserts; the claim check refuses such a rewrite, so it is no claim-keeping evasion',
  lossy: 'keeps too little of the text for any reader to recover the claim',
  'other-script-input': 'rewrites letters of one script (Arabic) only; no generated entry is written in it',
  'white-box': 'needs gradients of a victim model; the guards here are black boxes',
} as const;
type NotApplicableReason = keyof typeof NOT_APPLICABLE_REASONS;

/** How a catalog entry is covered. */
type CatalogCoverage =
  /** One or more operators produce its kind. */
  | { status: 'mapped'; operators: readonly CatalogOperatorId[] }
  /** Needs a language model (or a model file): the `llm-paraphrase` family covers it, with recorded fixtures; `operators` are model-free stand-ins where there are some. */
  | { status: 'llm'; operators?: readonly CatalogOperatorId[] }
  /** Covered by a generator family or its templates rather than an operator. */
  | { status: 'family'; family: string }
  | { status: 'not-applicable'; reason: NotApplicableReason }
  /** Applicable, but not built here: `why` says what is missing. */
  | { status: 'gap'; why: string };

export interface CatalogEntry {
  catalog: CatalogId;
  /** The catalog's own name: class, probe, buff, transformation or strategy id. */
  name: string;
  coverage: CatalogCoverage;
  /** One line on the mapping, when it needs one. */
  note?: string;
}

const m = (...operators: CatalogOperatorId[]): CatalogCoverage => ({ status: 'mapped', operators });
const llm = (...operators: CatalogOperatorId[]): CatalogCoverage => (operators.length > 0 ? { status: 'llm', operators } : { status: 'llm' });
const na = (reason: NotApplicableReason): CatalogCoverage => ({ status: 'not-applicable', reason });
const fam = (family: string): CatalogCoverage => ({ status: 'family', family });
const TRANSLATE: CatalogOperatorId[] = ['translate-es', 'translate-de', 'translate-zh', 'translate-fr', 'translate-pt', 'translate-it', 'translate-ru', 'translate-ja'];

type Row = readonly [name: string, coverage: CatalogCoverage, note?: string];
const rows = (catalog: CatalogId, list: readonly Row[]): CatalogEntry[] => list.map(([name, coverage, note]) => (note === undefined ? { catalog, name, coverage } : { catalog, name, coverage, note }));

const SELECTION = 'chooses which words another converter rewrites; operators here choose their words themselves (filter-relevant words, check names, `choice`)';

const PYRIT: readonly Row[] = [
  ['AcrosticConverter', llm(), 'a model writes lines whose first letters spell the text'],
  ['AddImageTextConverter', na('image')],
  ['AddImageVideoConverter', na('video')],
  ['AddTextImageConverter', na('image')],
  ['AllWordsSelectionStrategy', na('not-a-transform'), SELECTION],
  ['AnsiAttackConverter', m('ansi-escapes')],
  ['ArabicPresentationFormConverter', na('other-script-input')],
  ['ArabiziConverter', na('other-script-input'), 'writes Arabic in Latin letters and digits'],
  ['AsciiArtConverter', m('ascii-art'), 'one filter-relevant word drawn as a FIGlet banner (Banner font) on rows of its own, the rest as text; PyRIT draws the whole prompt with the art library'],
  ['AsciiSmugglerConverter', m('unicode-tags')],
  ['AskToDecodeConverter', m('base64-payload', 'hex-payload', 'base32-payload'), 'the payload operators add the decode hint'],
  ['AtbashConverter', m('atbash-payload')],
  ['AudioEchoConverter', na('audio')],
  ['AudioFrequencyConverter', na('audio')],
  ['AudioSpeedConverter', na('audio')],
  ['AudioVolumeConverter', na('audio')],
  ['AudioWhiteNoiseConverter', na('audio')],
  ['AzureSpeechAudioToTextConverter', na('audio')],
  ['AzureSpeechTextToAudioConverter', na('audio')],
  ['Base2048Converter', m('base2048-payload')],
  ['Base64Converter', m('base64-payload')],
  ['BidiConverter', m('bidi-override')],
  ['BinAsciiConverter', m('hex-payload', 'binary-payload')],
  ['BinaryConverter', m('binary-payload')],
  ['BrailleConverter', m('braille')],
  ['CaesarConverter', m('caesar-payload')],
  ['CharSwapConverter', m('typo', 'char-substitution')],
  ['CharacterSpaceConverter', m('letter-split')],
  ['CodeChameleonConverter', m('reverse-text', 'format-code-comment'), 'the text reordered (reversed words) inside code'],
  ['ColloquialWordswapConverter', m('colloquial-words'), 'a casual word list of its own (office and chat slang), not regional slang; check names are left as they are'],
  ['Converter', na('not-a-transform'), 'base class'],
  ['ConverterResult', na('not-a-transform'), 'result type'],
  ['DecompositionConverter', llm('split-entries'), 'a model splits the request into parts; split-entries splits the claim across two entries'],
  ['DenylistConverter', llm('claim-synonym', 'wordnet-synonym'), 'a model swaps listed words for synonyms; the synonym operators do it from the lexicon and WordNet'],
  ['DiacriticConverter', m('diacritics')],
  ['EcojiConverter', m('ecoji-payload'), 'Ecoji V1, as the python ecoji package PyRIT calls writes it'],
  ['EmojiConverter', m('enclosed-letters')],
  ['FirstLetterConverter', na('lossy'), 'keeps only the first letter of each word'],
  ['FlipConverter', m('reverse-text')],
  ['ImageColorSaturationConverter', na('image')],
  ['ImageCompressionConverter', na('image')],
  ['ImageOverlayConverter', na('image')],
  ['ImagePromptStyleConverter', na('image')],
  ['ImageResizingConverter', na('image')],
  ['ImageRotationConverter', na('image')],
  ['IndexSelectionStrategy', na('not-a-transform'), SELECTION],
  ['InsertPunctuationConverter', m('punctuation-insertion')],
  ['IPAConverter', m('ipa-words'), 'filter words and check names; CMU dictionary pronunciations restricted to the words rewritten'],
  ['JsonStringConverter', m('format-json', 'escape-sequences')],
  ['KeywordSelectionStrategy', na('not-a-transform'), SELECTION],
  ['LeetspeakConverter', m('leetspeak')],
  ['LLMGenericTextConverter', llm()],
  ['MaliciousQuestionGeneratorConverter', na('changes-claim'), 'replaces the text with generated questions'],
  ['MathObfuscationConverter', m('math-obfuscation'), 'our form: each character as arithmetic whose value is its code'],
  ['MathPromptConverter', llm(), 'a model recasts the text as a math problem'],
  ['MorseConverter', m('morse-payload')],
  ['NatoConverter', m('nato-spelling')],
  ['NegationTrapConverter', na('changes-claim'), 'recasts the statement as a negated question'],
  ['NoiseConverter', llm('typo', 'char-insertion', 'char-deletion', 'char-substitution'), 'a model adds noise; the character-noise operators do it without one'],
  ['PDFConverter', na('file')],
  ['PersuasionConverter', llm('authority-frame', 'reported-speech'), 'persuasion techniques written by a model; authority and attribution frames are the model-free ones'],
  ['PolicyPuppetryConverter', m('authority-frame', 'format-xml'), 'the text as a policy file'],
  ['PolicyPuppetryTemplate', na('not-a-transform'), 'template data of PolicyPuppetryConverter'],
  ['PositionSelectionStrategy', na('not-a-transform'), SELECTION],
  ['ProportionSelectionStrategy', na('not-a-transform'), SELECTION],
  ['QRCodeConverter', na('image')],
  ['ROT13Converter', m('rot13-payload')],
  ['RandomCapitalLettersConverter', m('mixed-case')],
  ['RandomTranslationConverter', llm('code-switch'), 'a model translates some words; code-switch mixes languages word by word'],
  ['RangeSelectionStrategy', na('not-a-transform'), SELECTION],
  ['RegexSelectionStrategy', na('not-a-transform'), SELECTION],
  ['RepeatTokenConverter', m('repeat-token')],
  ['ScientificTranslationConverter', llm(), 'a model rewrites in scientific jargon'],
  ['SearchReplaceConverter', na('not-a-transform'), 'a user-given find-and-replace; every operator is one'],
  ['SelectiveTextConverter', na('not-a-transform'), 'applies another converter to selected words'],
  ['SneakyBitsSmugglerConverter', m('sneaky-bits')],
  ['StringJoinConverter', m('letter-split', 'camel-case')],
  ['SuffixAppendConverter', m('suffix-append')],
  ['SuperscriptConverter', m('superscript')],
  ['TaskFramingConverter', m('role-play', 'authority-frame')],
  ['TatweelConverter', m('invisible-fillers')],
  ['TemplateSegmentConverter', m('role-play', 'quotation'), 'the text placed inside a framing template'],
  ['TenseConverter', llm(), 'a model changes the tense (future tense says the check is not done: the claim check refuses it)'],
  ['TextJailbreakConverter', m('role-play')],
  ['TextSelectionStrategy', na('not-a-transform'), SELECTION],
  ['TokenSelectionStrategy', na('not-a-transform'), SELECTION],
  ['ToneConverter', llm()],
  ['ToxicSentenceGeneratorConverter', na('changes-claim'), 'replaces the text with generated sentences'],
  ['TranslationConverter', llm(...TRANSLATE), 'a model translates; the translate operators cover eight languages without one'],
  ['TransparencyAttackConverter', na('image')],
  ['UnicodeConfusableConverter', m('homoglyph')],
  ['UnicodeReplacementConverter', m('escape-sequences')],
  ['UnicodeSubstitutionConverter', m('unicode-tags'), 'maps characters into the tag block (U+E0000)'],
  ['UrlConverter', m('url-encoding')],
  ['VariationConverter', llm()],
  ['VariationSelectorSmugglerConverter', m('variation-selectors')],
  ['VigenereConverter', m('vigenere-payload')],
  ['WordDocConverter', na('file')],
  ['WordIndexSelectionStrategy', na('not-a-transform'), SELECTION],
  ['WordKeywordSelectionStrategy', na('not-a-transform'), SELECTION],
  ['WordPositionSelectionStrategy', na('not-a-transform'), SELECTION],
  ['WordProportionSelectionStrategy', na('not-a-transform'), SELECTION],
  ['WordRegexSelectionStrategy', na('not-a-transform'), SELECTION],
  ['WordSelectionStrategy', na('not-a-transform'), SELECTION],
  ['ZalgoConverter', m('zalgo')],
  ['ZeroWidthConverter', m('zero-width')],
  ['get_converter_modalities', na('not-a-transform'), 'helper function'],
];

const GARAK: readonly Row[] = [
  ['encoding.InjectBase64', m('base64-payload')],
  ['encoding.InjectBase16', m('hex-payload')],
  ['encoding.InjectBase32', m('base32-payload')],
  ['encoding.InjectAscii85', m('ascii85-words')],
  ['encoding.InjectHex', m('hex-payload')],
  ['encoding.InjectQP', m('quoted-printable')],
  ['encoding.InjectUU', m('uuencode-payload'), 'a begin line, length-prefixed data lines, a zero-length line, end; the reader takes the lines across newlines, blanks or " / " and as a format operator escaped them'],
  ['encoding.InjectMime', m('quoted-printable')],
  ['encoding.InjectROT13', m('rot13-payload')],
  ['encoding.InjectBase2048', m('base2048-payload')],
  ['encoding.InjectBraille', m('braille')],
  ['encoding.InjectAtbash', m('atbash-payload')],
  ['encoding.InjectMorse', m('morse-payload')],
  ['encoding.InjectNato', m('nato-spelling')],
  ['encoding.InjectEcoji', m('ecoji-payload'), 'Ecoji V1 (garak pins the python ecoji package, a V1 encoder)'],
  ['encoding.InjectZalgo', m('zalgo')],
  ['encoding.InjectUTFFullwidth', m('full-width')],
  ['encoding.InjectLeet', m('leetspeak')],
  ['encoding.InjectUnicodeTagChars', m('unicode-tags')],
  ['encoding.InjectUnicodeVariantSelectors', m('variation-selectors')],
  ['encoding.InjectSneakyBits', m('sneaky-bits')],
  ['badchars.BadCharacters (invisible)', m('zero-width', 'invisible-fillers')],
  ['badchars.BadCharacters (homoglyph)', m('homoglyph')],
  ['badchars.BadCharacters (reordering)', m('bidi-swap')],
  ['badchars.BadCharacters (deletion)', m('backspace-pairs')],
  ['buffs.encoding.Base64', m('base64-payload')],
  ['buffs.encoding.CharCode', m('char-codes')],
  ['buffs.encoding.Caesar', m('caesar-payload')],
  ['buffs.best_of_n.BestOfNBuff', m('word-scramble', 'mixed-case', 'ascii-noise')],
  ['buffs.formatspread.FormatSpread', m('format-key-value', 'mixed-case'), 'a label, separator and casing around the text'],
  ['buffs.lowercase.Lowercase', m('mixed-case'), 'case only; the claim check reads case-insensitively'],
  ['buffs.low_resource_languages.LRLBuff', llm(...TRANSLATE), 'machine translation into low-resource languages'],
  ['buffs.paraphrase.PegasusT5', llm(), 'a paraphrase model'],
  ['buffs.paraphrase.Fast', llm(), 'a paraphrase model'],
  ['buffs.promptinjection.IgnorePreviousInstructions', fam('naive'), 'an overt instruction prefix: the naive family'],
  ['buffs.turkish_casefold.TurkishLowercase', m('turkish-case')],
  ['buffs.turkish_casefold.TurkishUppercase', m('turkish-case')],
  ['phrasing.PastTense', llm(), 'a past-tense rewrite; entries here are already in the past tense'],
  ['phrasing.PastTenseFull', llm()],
  ['phrasing.FutureTense', na('changes-claim'), 'a check that will be done is not done: the claim check refuses it'],
  ['phrasing.FutureTenseFull', na('changes-claim')],
];

const TEXTATTACK: readonly Row[] = [
  ['WordSwapEmbedding', llm('wordnet-synonym', 'claim-synonym'), 'needs counter-fitted embeddings; WordNet and lexicon synonyms are the model-free swap'],
  ['WordSwapHowNet', m('wordnet-synonym')],
  ['WordSwapHomoglyphSwap', m('homoglyph')],
  ['WordSwapInflections', m('inflection-swap'), 'noun number and verb agreement of words outside the claim; no tense change (a check that will be done is not done)'],
  ['WordSwapNeighboringCharacterSwap', m('typo')],
  ['WordSwapRandomCharacterDeletion', m('char-deletion')],
  ['WordSwapRandomCharacterInsertion', m('char-insertion')],
  ['WordSwapRandomCharacterSubstitution', m('char-substitution')],
  ['WordSwapWordNet', m('wordnet-synonym')],
  ['WordSwapMaskedLM', llm(), 'needs a masked language model'],
  ['WordSwapQWERTY', m('keyboard-typo')],
  ['WordSwapContract', m('contraction')],
  ['WordSwapExtend', m('contraction')],
  ['WordSwapChangeNumber', m('count-within-store', 'count-inflate'), 'the precedent count changed'],
  ['WordSwapChangeLocation', na('changes-claim'), 'replaces named places: the entry then speaks of another source'],
  ['WordSwapChangeName', na('changes-claim'), 'replaces named people: the entry then cites another approver'],
  ['WordSwapGradientBased', na('white-box')],
  ['WordSwapInvisibleCharacters', m('zero-width', 'invisible-fillers')],
  ['WordSwapDeletions', m('backspace-pairs')],
  ['WordSwapReorderings', m('bidi-swap')],
  ['WordSwapDifferentialEvolution', na('not-a-transform'), 'a search over the imperceptible perturbations; the attack here searches with MCTS'],
  ['WordSwapCase', m('mixed-case')],
  ['WordSwapPunctuationInsertion', m('punctuation-insertion')],
  ['WordSwapTabInsertion', m('whitespace-swap')],
  ['WordSwapWhitespace', m('whitespace-swap')],
  ['ChineseHomophoneCharacterSwap', m('zh-homophone'), 'on the Chinese check names; homophones with the same toned pinyin (pinyin-pro)'],
  ['ChineseMorphonymCharacterSwap', m('zh-morphonym'), 'on the Chinese check names; a look-alike table written here'],
  ['ChineseWordSwapHowNet', llm(), 'needs HowNet sememes for Chinese'],
  ['ChineseWordSwapMaskedLM', llm(), 'needs a Chinese masked language model'],
  ['WordDeletion', m('word-deletion'), 'filler words outside the claim only: a deleted check name or negation would change what the entry says'],
  ['WordInnerSwapRandom', m('word-swap'), 'two words outside the claim, within one clause'],
  ['WordInterchangeRandom', m('word-swap'), 'two words outside the claim, within one clause'],
  ['RandomSwap', m('word-swap'), 'two words outside the claim, within one clause'],
  ['RandomSynonymInsertion', m('synonym-insertion'), 'a WordNet synonym of a word outside the claim, into the same clause'],
  ['WordInsertionRandomSynonym', m('synonym-insertion'), 'a WordNet synonym of a word outside the claim, into the same clause'],
  ['WordInsertionMaskedLM', llm(), 'needs a masked language model'],
  ['WordInsertionHyperlink', m('markdown-link')],
  ['WordMergeMaskedLM', llm(), 'needs a masked language model'],
  ['BackTranslation', llm(...TRANSLATE), 'needs a translation model; the translate operators write eight languages'],
  ['BackTranscription', na('audio'), 'speech synthesis then recognition'],
  ['CompositeTransformation', na('not-a-transform'), 'composes transformations; operator sequences do here'],
];

const PROMPTFOO: readonly Row[] = [
  ['base64', m('base64-payload')],
  ['hex', m('hex-payload')],
  ['rot13', m('rot13-payload')],
  ['leetspeak', m('leetspeak')],
  ['homoglyph', m('homoglyph')],
  ['morse', m('morse-payload')],
  ['piglatin', m('pig-latin')],
  ['camelcase', m('camel-case')],
  ['emoji', m('variation-selectors'), 'variation-selector smuggling after an emoji'],
  ['atbash', m('atbash-payload')],
  ['reverse', m('reverse-text')],
  ['binary', m('binary-payload')],
  ['octal', m('char-codes', 'escape-sequences'), 'character codes in another base'],
  ['other-encodings', m('morse-payload', 'pig-latin', 'camel-case', 'variation-selectors'), 'collection: camelcase, morse, piglatin, emoji'],
  ['zero-width', m('zero-width')],
  ['unicode-noise', m('zalgo')],
  ['zalgo', m('zalgo')],
  ['whitespace-obfuscation', m('whitespace-swap')],
  ['random-case', m('mixed-case')],
  ['unicode-normalization', na('not-a-transform'), 'rewrites to a Unicode normal form: plain entries do not change, and the claim check reads NFKC'],
  ['arabic-presentation-forms', na('other-script-input')],
  ['bijection', m('cyrillic-letters', 'greek-letters', 'runic-letters'), 'a letter-to-symbol table; the tables here are fixed and known to the reader'],
  ['flipattack', m('reverse-text')],
  ['best-of-n', m('word-scramble', 'mixed-case', 'ascii-noise')],
  ['adv-noise', m('typo', 'char-insertion', 'char-deletion', 'keyboard-typo')],
  ['citation', m('authority-frame', 'quotation')],
  ['authoritative-markup-injection', m('authority-frame', 'format-xml')],
  ['math-prompt', llm()],
  ['multilingual', llm(...TRANSLATE), 'translation by a model; eight languages without one'],
  ['prompt-injection', fam('naive'), 'overt injection templates: the naive family'],
  ['indirect-web-pwn', fam('farma seed templates (retrieved-document channel)'), 'the forgery inside a retrieved page'],
  ['mcp-shadow', fam('farma seed templates (tool-output channel)'), 'the forgery inside a tool description or result'],
  ['persona', m('role-play')],
  ['counterfactual', na('changes-claim'), 'a counterfactual frame supposes the claim; the claim check refuses a supposed claim'],
  ['basic', na('not-a-transform'), 'the unmodified test case'],
  ['default', na('not-a-transform'), 'the default strategy set'],
  ['layer', na('not-a-transform'), 'composes strategies; operator sequences do here'],
  ['retry', na('not-a-transform'), 'replays failed tests; the regression corpus does here'],
  ['custom', na('multi-turn')],
  ['crescendo', na('multi-turn')],
  ['goat', na('multi-turn')],
  ['jailbreak:hydra', na('multi-turn')],
  ['mischievous-user', na('multi-turn')],
  ['simba', na('multi-turn')],
  ['jailbreak', llm(), 'an attacker model refines the prompt; the MCTS search over operators is the model-free counterpart'],
  ['jailbreak:meta', llm()],
  ['jailbreak:tree', llm()],
  ['jailbreak:composite', llm()],
  ['jailbreak:likert', llm()],
  ['gcg', m('suffix-append'), 'an optimised suffix (white-box in the original); suffix-append writes suffixes of that style'],
  ['audio', na('audio')],
  ['image', na('image')],
  ['video', na('video')],
  ['pdf', na('file')],
];

/** The matrix, catalog by catalog, in the catalogs' own order. */
export const CATALOG: readonly CatalogEntry[] = [...rows('pyrit', PYRIT), ...rows('garak', GARAK), ...rows('textattack', TEXTATTACK), ...rows('promptfoo', PROMPTFOO)];

/** Counts per catalog: mapped (an operator), llm (the LLM family), family, gap, and not applicable by reason. */
export interface CatalogCounts {
  catalog: CatalogId;
  total: number;
  /** Entries with at least one registered operator. */
  mapped: number;
  /** Entries whose operators are all built but withheld from the registry (a composition loses the claim). */
  withheld: number;
  llm: number;
  family: number;
  gap: number;
  notApplicable: Partial<Record<NotApplicableReason, number>>;
}

/** Counts of `CATALOG` per catalog. Pure. */
export function catalogCounts(entries: readonly CatalogEntry[] = CATALOG): CatalogCounts[] {
  return CATALOGS.map((catalog) => {
    const own = entries.filter((e) => e.catalog === catalog);
    const notApplicable: Partial<Record<NotApplicableReason, number>> = {};
    for (const e of own) if (e.coverage.status === 'not-applicable') notApplicable[e.coverage.reason] = (notApplicable[e.coverage.reason] ?? 0) + 1;
    const n = (s: CatalogCoverage['status']): number => own.filter((e) => e.coverage.status === s).length;
    const allWithheld = (e: CatalogEntry): boolean => e.coverage.status === 'mapped' && e.coverage.operators.every(isWithheld);
    const withheld = own.filter(allWithheld).length;
    return { catalog, total: own.length, mapped: n('mapped') - withheld, withheld, llm: n('llm'), family: n('family'), gap: n('gap'), notApplicable };
  });
}
