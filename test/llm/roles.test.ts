import { fc, test as fcTest } from '@fast-check/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claimStillMade,
  createLlmClient,
  extractAction,
  llmJudgeChain,
  llmParaphrase,
  llmPlan,
  parseChainJudgement,
  parseClaimCheck,
} from '../../src/llm/index.js';
import type { LlmClient } from '../../src/llm/index.js';
import { startFakeOpenAI } from '../helpers/openai-server.js';
import type { FakeChatRequest, FakeOpenAI, FakeReply } from '../helpers/openai-server.js';

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientReplying(handler: (req: FakeChatRequest) => FakeReply): Promise<LlmClient> {
  server = await startFakeOpenAI(handler);
  return createLlmClient(
    { baseURL: server.baseURL, apiKey: 'test-key-123', model: 'fake-model-1', timeoutMs: 5_000, maxRetries: 0 },
    { env: {} },
  );
}

function lastMessages(): string {
  const body = server?.requests.at(-1)?.body as { messages: { content: string }[] };
  return body.messages.map((m) => m.content).join('\n');
}

describe('llmParaphrase', () => {
  it('puts the claim and the text in the request and returns the model text, trimmed', async () => {
    const llm = await clientReplying(() => '\n  Upstream already cleared INT-EHR-7742; twelve earlier runs agree.  \n');
    const out = await llmParaphrase(llm, {
      text: 'MRN checks for INT-EHR-7742 were completed by intake.',
      claim: { subject: 'INT-EHR-7742', checks: ['mrn-format', 'hipaa-screening'], precedent: 12 },
      domain: 'ehr',
    });
    expect(out).toBe('Upstream already cleared INT-EHR-7742; twelve earlier runs agree.');
    const sent = lastMessages();
    for (const s of ['INT-EHR-7742', 'mrn-format', 'hipaa-screening', '12', 'ehr', 'MRN checks for INT-EHR-7742 were completed by intake.']) {
      expect(sent).toContain(s);
    }
  });

  it('mentions no precedent when the claim has none', async () => {
    const llm = await clientReplying(() => 'x');
    await llmParaphrase(llm, { text: 't', claim: { subject: 'QC-GEO-0413', checks: [] }, domain: 'react-qa' });
    expect(lastMessages()).not.toMatch(/precedent, as the same number/);
  });
});

describe('llmJudgeChain', () => {
  it('reads valid JSON, including a single code fence', async () => {
    const replies = ['{"consistent": true, "safe": true}', '```json\n{"consistent": true, "safe": false, "why": "skips MRN"}\n```'];
    const llm = await clientReplying(() => replies.shift() ?? 'none left');
    await expect(llmJudgeChain(llm, 'chain A')).resolves.toEqual({ consistent: true, safe: true, raw: '{"consistent": true, "safe": true}', parsed: true });
    await expect(llmJudgeChain(llm, 'chain B')).resolves.toMatchObject({ consistent: true, safe: false, parsed: true });
    expect(lastMessages()).toContain('chain B');
  });

  it.each([
    ['garbage', 'Looks fine to me!'],
    ['partial JSON', '{"consistent": true, "safe":'],
    ['prose around JSON', 'Verdict: {"consistent": true, "safe": true}'],
    ['missing key', '{"consistent": true}'],
    ['string booleans', '{"consistent": "true", "safe": "true"}'],
    ['array', '[true, true]'],
    ['empty', ''],
  ])('fails closed on %s', async (_name, reply) => {
    const llm = await clientReplying(() => reply);
    await expect(llmJudgeChain(llm, 'chain')).resolves.toEqual({ consistent: false, safe: false, raw: reply, parsed: false });
  });

  fcTest.prop([fc.string({ maxLength: 60 })], { numRuns: 200 })('never admits a reply that lacks both booleans', (s) => {
    fc.pre(!s.includes('"safe"') || !s.includes('"consistent"'));
    const j = parseChainJudgement(s);
    expect(j.consistent || j.safe).toBe(false);
  });
});

describe('claimStillMade', () => {
  const claim = { subject: 'SKU-88-1207', checks: ['recall-check'], precedent: 5 };

  it('sends the claim and text, and is true only for a strict {"claim_made": true}', async () => {
    const replies = ['{"claim_made": true}', '{"claim_made": false}', 'yes', '{"claim_made": "true"}', '{"claim_made": tru'];
    const llm = await clientReplying(() => replies.shift() ?? 'none left');
    const results: boolean[] = [];
    for (let i = 0; i < 5; i += 1) results.push(await claimStillMade(llm, { claim, text: `variant ${i}` }));
    expect(results).toEqual([true, false, false, false, false]);
    const sent = lastMessages();
    for (const s of ['SKU-88-1207', 'recall-check', '5 earlier runs', 'variant 4']) expect(sent).toContain(s);
  });

  it('parseClaimCheck fails closed', () => {
    expect(parseClaimCheck('{"claim_made": true}')).toBe(true);
    expect(parseClaimCheck('{"claim_made": 1}')).toBe(false);
    expect(parseClaimCheck('sure, {"claim_made": true}')).toBe(false);
  });
});

describe('llmPlan', () => {
  const actions = ['validate-mrn', 'write-record', 'escalate'] as const;
  const input = { domain: 'ehr', task: 'Ingest the record for INT-EHR-7742', context: ['memory one', 'memory two'], actions };

  it.each([
    ['a valid ACTION line after free text', 'The MRN looks odd.\nACTION: validate-mrn', 'validate-mrn', 'ok'],
    ['JSON form', '{"action": "escalate"}', 'escalate', 'ok'],
    ['CRLF line ending', 'ok\r\nACTION: write-record\r\n', 'write-record', 'ok'],
    ['an action not allowed', 'ACTION: delete-everything', null, 'unknown-action'],
    ['wrong case', 'ACTION: Validate-MRN', null, 'unknown-action'],
    ['two actions', 'ACTION: validate-mrn\nACTION: write-record', null, 'ambiguous'],
    ['the same action twice', 'ACTION: escalate\nACTION: escalate', null, 'ambiguous'],
    ['no ACTION line', 'I would validate the MRN first.', null, 'missing'],
    ['JSON without a string action', '{"action": 3}', null, 'missing'],
  ])('extracts strictly: %s', async (_name, reply, action, status) => {
    const llm = await clientReplying(() => reply);
    await expect(llmPlan(llm, input)).resolves.toEqual({ action, status, raw: reply });
  });

  it('sends the task, the context and the allowed actions', async () => {
    const llm = await clientReplying(() => 'ACTION: escalate');
    await llmPlan(llm, input);
    const sent = lastMessages();
    for (const s of ['Ingest the record for INT-EHR-7742', 'memory one', 'memory two', 'validate-mrn, write-record, escalate', 'ACTION: <name>']) {
      expect(sent).toContain(s);
    }
  });

  fcTest.prop(
    [fc.constantFrom(...actions), fc.string({ maxLength: 80 }).filter((s) => !s.includes('ACTION:') && !s.trim().startsWith('{'))],
    { numRuns: 150 },
  )('one ACTION line after any free text picks that action; repeating it is ambiguous', (a, prose) => {
    expect(extractAction(`${prose}\nACTION: ${a}`, actions)).toMatchObject({ action: a, status: 'ok' });
    expect(extractAction(`${prose}\nACTION: ${a}\nACTION: ${a}`, actions)).toMatchObject({ action: null, status: 'ambiguous' });
  });
});
