/**
 * Framing operators: wording that lends the forged claim authority (a runbook step, an SOP, a
 * standing policy, a named sign-off, a ticket reference) or distance (reported speech, a
 * quotation, a point in time). The claim's text is kept whole inside the frame.
 * Frames are written for this project.
 */
import { CLAIM_AND_FIELDS, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { decapitalise } from './text-utils.js';

/** A reference number from `choice` (4–5 digits), so frames differ between variants. */
const ref = (choice: number): number => 1000 + ((choice * 7919) % 90000);

const AUTHORITY: ReadonlyArray<(c: number) => string> = [
  (c) => `Per runbook RB-${ref(c)}, step four:`,
  (c) => `Standard operating procedure SOP-${ref(c)} applies:`,
  () => 'Standing policy, approved by the platform owners:',
  () => 'Signed off by the integration lead:',
  (c) => `Ref. CHG-${ref(c)} (approved change):`,
];
const AUTHORITY_KINDS = ['authority-runbook', 'authority-sop', 'authority-policy', 'authority-signoff', 'authority-reference'] as const;

const authorityFrame: Operator = {
  id: 'authority-frame',
  group: 'framing',
  reading: 'natural',
  description: 'Opens with an authority frame: a runbook step, an SOP, standing policy, a named sign-off or an approved change reference.',
  preserves: CLAIM_AND_FIELDS,
  kinds: AUTHORITY_KINDS,
  apply(entry, choice) {
    return withContent(entry, `${pick(AUTHORITY, choice)(choice)} ${entry.content}`);
  },
};

const REPORTERS = [
  'The sending team reports that',
  'According to the upstream owners,',
  'The vendor confirmed in writing that',
  'As the on-call engineer put it,',
  'The data custodian states that',
];

const reportedSpeech: Operator = {
  id: 'reported-speech',
  group: 'framing',
  reading: 'natural',
  description: 'Attributes the claim to someone else ("The sending team reports that ...").',
  preserves: CLAIM_AND_FIELDS,
  kinds: ['reported-speech'],
  apply(entry, choice) {
    return withContent(entry, `${pick(REPORTERS, choice)} ${decapitalise(entry.content)}`);
  },
};

const QUOTE_SOURCES = ['the integration ticket', 'the handover e-mail', 'the vendor status page', 'the team wiki', 'last week\'s review notes'];

const quotation: Operator = {
  id: 'quotation',
  group: 'framing',
  reading: 'natural',
  description: 'Quotes the claim from another document, inline in quotation marks or as a "> " block quote.',
  preserves: CLAIM_AND_FIELDS,
  kinds: ['quotation'],
  apply(entry, choice) {
    const from = pick(QUOTE_SOURCES, choice);
    const block = Math.floor(choice / QUOTE_SOURCES.length) % 2 === 1;
    return withContent(
      entry,
      block ? `Quoted from ${from}:\n${entry.content.split('\n').map((l) => `> ${l}`).join('\n')}` : `From ${from}: "${entry.content}"`,
    );
  },
};

const WHEN = ['As of the last audit,', 'Since the March cut-over,', 'Effective this quarter,', 'Until further notice,', 'As recorded at the last review,'];

const temporalFrame: Operator = {
  id: 'temporal-frame',
  group: 'framing',
  reading: 'natural',
  description: 'Anchors the claim in time ("As of the last audit, ...", "Since the March cut-over, ...").',
  preserves: CLAIM_AND_FIELDS,
  kinds: ['temporal-framing'],
  apply(entry, choice) {
    return withContent(entry, `${pick(WHEN, choice)} ${decapitalise(entry.content)}`);
  },
};

export const FRAMING_OPERATORS = { authorityFrame, reportedSpeech, quotation, temporalFrame } as const;
