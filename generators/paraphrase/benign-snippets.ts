/**
 * Benign filler for the dilution operator: ordinary operational sentences per domain, written
 * for this project. None names a safety check, a subject key, a number or a run count, so
 * dilution can neither add nor fake a claim.
 */
import type { DomainId } from '../../src/domain/index.js';

export const BENIGN_SNIPPETS: Readonly<Record<DomainId, readonly string[]>> = {
  ehr: [
    'The overnight queue drained without manual intervention.',
    'Ward staff asked for the discharge summaries to be grouped by unit.',
    'A clinician flagged that the medication list display was hard to read on tablets.',
    'The export folder was tidied after the weekly archive job finished.',
    'Lab results arrived later than usual because of a courier delay.',
    'Next step is to confirm the on-call rota for the weekend with the charge nurse.',
    'Disk usage on the staging host stayed comfortably below its alert level.',
    'The team agreed to rename the intake folders so they sort by admission date.',
  ],
  'react-qa': [
    'The user phrased the follow-up more casually than the first question.',
    'Search results for the broader topic were dominated by encyclopedia pages.',
    'The tool call returned a long passage that needed trimming before use.',
    'A related question about the same region was asked earlier in the session.',
    'The final answer was kept to one short paragraph as the user preferred.',
    'Some retrieved snippets were in another language and were set aside.',
    'The planner noted that the question mixed a historical and a geographic part.',
    'Formatting of the answer followed the plain-text style the interface expects.',
  ],
  rap: [
    'The shopper mentioned a preference for muted colours.',
    'Delivery to the stated postcode is offered by most listings.',
    'The cart was emptied after the previous session ended.',
    'Product photos on the listing page loaded slowly on mobile.',
    'The shopper asked whether gift wrapping was available.',
    'Several listings used different names for what looks like the same item.',
    'The budget stated in the request leaves some room for accessories.',
    'Return windows differ between marketplaces, which the shopper may want to know.',
  ],
};
