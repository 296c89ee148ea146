/** `farma-fuzz list guards|families|domains`: what can be named on the command line. */
import { DOMAINS } from '../domain/fuzz-case.js';
import { UsageError } from '../domain/errors.js';
import { GUARDS } from '../guards/registry.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';

export const LISTABLE = ['guards', 'families', 'domains'] as const;

export function listText(what: string): string {
  switch (what) {
    case 'guards':
      return Object.entries(GUARDS)
        .map(([id, g]) => `${id.padEnd(12)} ${g.description}`)
        .join('\n');
    case 'families':
      return Object.entries(FAMILY_REGISTRY)
        .map(([id, f]) => `${id.padEnd(14)} ${f.label.padEnd(7)} ${f.description}`)
        .join('\n');
    case 'domains':
      return DOMAINS.join('\n');
    default:
      throw new UsageError(`list: unknown kind "${what}" (known: ${LISTABLE.join(', ')})`);
  }
}
