// qualifyLead through the handlers and the persona reader behind its port: the deterministic
// rules, a plugged-in reader, the reader chosen from the environment, and nothing stored.
import { ConfigError } from '@fieldops/kit';
import { openCrmDomain } from '../src/index.ts';
import { personaReaderFromEnv } from '../src/qualification/persona-reader.config.ts';
import type { PersonaReader } from '../src/qualification/persona-reader.port.ts';
import { createRuleBasedReader } from '../src/qualification/rule-based.reader.ts';
import { ctx, openTestCrm, outboxEvents, refusal, TENANT_B, type TestCrm } from './harness.ts';

const rules = createRuleBasedReader();
const read = (text: string) => rules.read([{ field: 'message', text }]);

describe('the rule-based persona reader', () => {
  it.each([
    ['We want to buy a house in the hills.', 'buyer'],
    ["We're making an offer on a barn and need it surveyed.", 'buyer'],
    ['Our home is going on the market in May.', 'seller'],
    ['Need photos for the listing.', 'seller'],
    ['We buy rentals for our portfolio.', 'investor'],
    ['Looking at a development site with a good cap rate.', 'investor'],
  ])('reads %j as %s', async (text, persona) => {
    expect((await read(text)).persona).toBe(persona);
  });

  it('does not count a negated signal', async () => {
    const reading = await read('We are not selling, we want to buy the plot next door.');
    expect(reading.persona).toBe('buyer');
    expect(reading.facts.map((fact) => fact.indicates)).toEqual(['buyer']);
  });

  it('gives no persona on a tie or on nothing, and says why', async () => {
    const tie = await read('We are selling our flat. Then we will buy a house.');
    expect(tie.persona).toBeUndefined();
    expect(tie.facts.map((fact) => fact.indicates).sort()).toEqual(['buyer', 'seller']);
    expect(tie.basis).toMatch(/equally/);
    const nothing = await read('Please call me back.');
    expect(nothing.persona).toBeUndefined();
    expect(nothing.facts).toEqual([]);
  });

  it('is deterministic', async () => {
    const text = 'Selling the farm. Buying a smaller place. Selling the tractor too.';
    expect(await read(text)).toEqual(await read(text));
    expect((await read(text)).persona).toBe('seller');
  });
});

describe('qualifyLead', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  it('reads from the inbound messages, stores nothing on the lead, and emits lead.qualified', async () => {
    const { lead } = await t.crm.createLead({ name: 'Bo', message: 'We are buying a cabin.' }, ctx());
    const before = await t.crm.getLead({ id: lead?.id ?? '' }, ctx());
    const { qualification, meta } = await t.crm.qualifyLead({ id: lead?.id ?? '' }, ctx());
    expect(qualification).toMatchObject({ leadId: lead?.id, persona: 'buyer', qualifier: 'rules/v1' });
    expect(qualification?.facts).toEqual([
      {
        field: 'inbound_message',
        ref: before.inboundMessages[0]?.id,
        quote: 'We are buying a cabin.',
        indicates: 'buyer',
      },
    ]);
    expect(meta?.created).toBe(false);
    expect(await t.crm.getLead({ id: lead?.id ?? '' }, ctx())).toEqual(before);
    const qualified = (await outboxEvents(t.store)).filter((event) => event.type === 'lead.qualified');
    expect(qualified).toHaveLength(1);
  });

  it("reads the lead's amended message as well, but never its source", async () => {
    const { lead } = await t.crm.createLead({ name: 'Cy', source: 'seller-webinar' }, ctx());
    await t.crm.updateLead({ id: lead?.id ?? '', ifMatch: '*', message: 'Investing in rentals.' }, ctx());
    const { qualification } = await t.crm.qualifyLead({ id: lead?.id ?? '' }, ctx());
    expect(qualification?.persona).toBe('investor');
    expect(qualification?.facts.map((fact) => fact.field)).toEqual(['message']);
  });

  it('answers with a plugged-in reader behind the port', async () => {
    const seen: string[] = [];
    const model: PersonaReader = {
      name: 'model/test',
      read: async (statements) => {
        seen.push(...statements.map((statement) => statement.text));
        return { persona: 'seller', facts: [], basis: 'A model said so.' };
      },
    };
    const crm = await openCrmDomain({ store: t.store, personaReader: model });
    const { lead } = await crm.createLead({ name: 'Di', message: 'Tell me about drones.' }, ctx());
    const { qualification } = await crm.qualifyLead({ id: lead?.id ?? '' }, ctx());
    expect(qualification).toMatchObject({ persona: 'seller', qualifier: 'model/test' });
    expect(seen).toEqual(['Tell me about drones.']);
  });

  it('finds no lead of another tenant', async () => {
    const { lead } = await t.crm.createLead({ name: 'Ed' }, ctx());
    expect((await refusal(t.crm.qualifyLead({ id: lead?.id ?? '' }, ctx({ tenantId: TENANT_B })))).code).toBe(
      'not_found',
    );
  });
});

describe('personaReaderFromEnv', () => {
  it('defaults to the rules and refuses an unknown reader at start-up', () => {
    expect(personaReaderFromEnv({}).name).toBe('rules/v1');
    expect(() => personaReaderFromEnv({ FIELDOPS_LEAD_QUALIFIER: 'gpt-nine' })).toThrow(ConfigError);
  });
});
