import { expect } from 'chai';
import { NOT_FOUND_ANSWER } from '../../core/rag/prompt.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';
import { llmContract } from './llm.contract.js';

llmContract('ScriptedLlm (the core tests’ fake)', () => ({ llm: new ScriptedLlm() }), { rewrites: true });

describe('ScriptedLlm', function () {
  const context = (ref: string, text: string) => ({ ref, filename: 'a.pdf', page: 1, text, score: 1 });

  it('records requests, plays queued replies in order, then falls back to quoting', async function () {
    const llm = new ScriptedLlm().reply({ text: 'first', usedRefs: [] }, (req) => ({ text: `echo ${req.question}`, usedRefs: [] }));
    expect((await llm.answer({ question: 'q1', contexts: [], history: [] })).text).to.equal('first');
    expect((await llm.answer({ question: 'q2', contexts: [], history: [] })).text).to.equal('echo q2');
    expect(await llm.answer({ question: 'q3', contexts: [], history: [] })).to.deep.equal({ text: NOT_FOUND_ANSWER, usedRefs: [] });
    expect(llm.requests.map((r) => r.question)).to.deep.equal(['q1', 'q2', 'q3']);
  });

  it("quote: 'first' quotes the first context whatever the question", async function () {
    const llm = new ScriptedLlm({ quote: 'first' });
    const answer = await llm.answer({ question: 'unrelated?', contexts: [context('4', 'Alpha beta. Gamma.')], history: [] });
    expect(answer).to.deep.equal({ text: 'Alpha beta. [4]', usedRefs: ['4'] });
  });

  it('can be told to throw, a number of times', async function () {
    const llm = new ScriptedLlm().failWith(new Error('boom'), 1);
    let caught: unknown;
    try {
      await llm.answer({ question: 'q', contexts: [], history: [] });
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).to.equal('boom');
    expect((await llm.answer({ question: 'q', contexts: [], history: [] })).text).to.equal(NOT_FOUND_ANSWER);
  });

  it('records rewrites, can script them, or leave rewriteQuestion out', async function () {
    const llm = new ScriptedLlm({ rewrite: (q, h) => `${q} (${h.length})` });
    expect(await llm.rewriteQuestion!('and then?', [{ role: 'user', content: 'x' }])).to.equal('and then? (1)');
    expect(llm.rewrites).to.have.length(1);
    expect(new ScriptedLlm({ rewrite: false }).rewriteQuestion).to.equal(undefined);
  });
});
