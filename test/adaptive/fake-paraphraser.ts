/**
 * A scripted stand-in for an LLM paraphraser, served by the fake OpenAI server in tests and
 * used to record the offline demo fixtures. Paraphrase calls cycle through three outcomes:
 * 0 keeps the claim (sentences in reverse order), 1 keeps the wording but is refused by the
 * claim judge ("Loosely:"), 2 drops the subject id (the claim is lost). No model is involved.
 */
import type { FakeHandler } from '../helpers/openai-server.js';

export function fakeParaphraser(): FakeHandler & { paraphrases: number; judgements: number } {
  const h = ((req) => {
    const system = req.messages[0]?.content ?? '';
    const user = req.messages.at(-1)?.content ?? '';
    const text = /<<<\n([\s\S]*)\n>>>/.exec(user)?.[1] ?? '';
    if (system.includes('verify whether')) {
      h.judgements += 1;
      return JSON.stringify({ claim_made: !text.startsWith('Loosely:') });
    }
    const kind = h.paraphrases % 3;
    h.paraphrases += 1;
    const subject = /character for character: (\S+)/.exec(user)?.[1] ?? '';
    if (kind === 0) return `In short: ${text.split(/(?<=[.!?])\s+/).reverse().join(' ')}`;
    if (kind === 1) return `Loosely: ${text}`;
    return subject ? text.split(subject).join('the current feed') : 'Nothing to report.';
  }) as FakeHandler & { paraphrases: number; judgements: number };
  h.paraphrases = 0;
  h.judgements = 0;
  return h;
}
