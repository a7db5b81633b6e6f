// The README's five-minute tour, sent as written to a real server: every step answers without
// errors and in the shape the README shows, so the front door cannot drift from the API.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverForThisFile } from '../support/fixture';
import { readTour, shapeDifferences } from './tour';

const BUILDING_BLOCKS = [
  'Counters',
  'Chats and mailboxes',
  'Locks and semaphores',
  'Autocomplete',
  'Task queues',
  'Marketplace',
  'Row caching',
  'Location analytics',
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-tour-'));
// The row cache's daemon would open the embedded database for the row the tour schedules: a
// scheduled row is all the step shows, and the row cache's own tests cover the copying.
const fixture = serverForThisFile({ DATA_DIR: dataDir, ROW_CACHE: 'off' });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const tour = readTour();

async function send(query: string, variables: Record<string, unknown>, token: string): Promise<unknown> {
  const response = await fetch(fixture.api.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

describe('the five-minute tour in README.md', () => {
  it('has one step per building block, in order', () => {
    expect(tour.map((step) => step.title)).toEqual(BUILDING_BLOCKS);
  });

  it('answers every step without errors and in the shape the README shows', async () => {
    // The banner's tokens are for dev-user and dev-service; the tour names dev-user.
    const tokens = {
      user: fixture.api.server.verifier.sign('dev-user', [], 600),
      service: fixture.api.server.verifier.sign('dev-service', ['service'], 600),
    };
    const answers: Record<string, unknown> = {};
    for (const step of tour) {
      const answer = (await send(step.query, step.variables, tokens[step.caller])) as { errors?: unknown };
      answers[step.title] = answer;
      expect({ step: step.title, errors: answer.errors }).toEqual({ step: step.title, errors: undefined });
      expect({ step: step.title, differences: shapeDifferences(step.answer, answer) }).toEqual({
        step: step.title,
        differences: [],
      });
    }
    // Values a fresh server gives for certain, as the README shows them.
    expect(answers['Counters']).toEqual({ data: { updateCounter: true } });
    expect(answers['Marketplace']).toEqual({ data: { grantFunds: 500, grantItem: true } });
    expect(answers['Location analytics']).toEqual(tour.find((step) => step.title === 'Location analytics')!.answer);
  });

  it('refuses a step that does not name its caller, or lacks its variables or answer', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-tour-read-'));
    const step = (prose: string, fences: string[]) =>
      ['### Step', '', prose, '', ...fences.flatMap((fence) => [fence, '```', ''])].join('\n');
    const write = (...steps: string[]) =>
      fs.writeFileSync(path.join(root, 'README.md'), ['# X', '## A five-minute tour', ...steps, '## Next'].join('\n'));
    const full = ['```graphql\n{ __typename }', '```json\n{}', '```json\n{ "data": { "__typename": "Query" } }'];
    try {
      write(step('With the user token, ask.', full));
      expect(readTour('README.md', root)).toEqual([
        {
          title: 'Step',
          line: 3,
          caller: 'user',
          query: '{ __typename }',
          variables: {},
          answer: { data: { __typename: 'Query' } },
        },
      ]);
      write(step('Ask with any token.', full));
      expect(() => readTour('README.md', root)).toThrow('README.md:3 (Step): the step must say once');
      write(step('With the service token, ask.', full.slice(0, 2)));
      expect(() => readTour('README.md', root)).toThrow(
        'README.md:3 (Step): fences graphql,json, not graphql,json,json',
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('tells a different shape from the one shown', () => {
    const shown = { data: { chat: { id: '1', members: ['bob'] } } };
    expect(shapeDifferences(shown, { data: { chat: { id: '7', members: ['ann', 'bob'] } } })).toEqual([]);
    expect(shapeDifferences(shown, { data: { chat: { id: 7, members: [] } } })).toEqual([
      '$.data.chat.id: number where the tour shows string',
      '$.data.chat.members: 0 items where the tour shows 1',
    ]);
    expect(shapeDifferences(shown, { data: { chat: { members: ['a'], extra: null } } })).toEqual([
      '$.data.chat.id: missing from the answer',
      '$.data.chat.extra: in the answer, not in the tour',
    ]);
    expect(shapeDifferences(shown, { data: null })).toEqual(['$.data: null where the tour shows object']);
  });
});
