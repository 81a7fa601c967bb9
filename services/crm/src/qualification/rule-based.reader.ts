// The default persona reader: deterministic keyword rules over what the lead wrote. It never
// guesses — every persona it gives is backed by the quoted statements, and when the statements
// point nowhere (or equally to two personas) it gives none and says why.
//
// Rules, sentence by sentence:
// - a sentence with an investor signal counts for investor only: investors buy and sell too, so
//   "buy" in "we buy rentals for our portfolio" is not read as a home buyer;
// - otherwise each buyer and seller signal counts for its persona;
// - a signal negated in its own clause ("we are not selling") does not count;
// - the persona is the one with strictly the most statements.
import type {
  LeadStatement,
  Persona,
  PersonaFact,
  PersonaReader,
  PersonaReading,
} from './persona-reader.port.ts';

export const RULE_BASED_READER_NAME = 'rules/v1';

/** Checked in this order; see the header for why investor comes first. */
const SIGNALS: readonly (readonly [Persona, readonly RegExp[]])[] = [
  [
    'investor',
    [
      /\binvest(?:or|ors|ing|ment|ments)?\b/i,
      /\bportfolio\b/i,
      /\brentals?\b/i,
      /\bflip(?:s|ping)?\b/i,
      /\bbuy[- ]and[- ]hold\b/i,
      /\bcap rate\b/i,
      /\broi\b/i,
      /\breturn on investment\b/i,
      /\bdevelopment (?:site|opportunity|project)\b/i,
      /\bacquisitions?\b/i,
    ],
  ],
  [
    'buyer',
    [
      /\bbuy(?:ing)?\b/i,
      /\bpurchas(?:e|ing)\b/i,
      /\bunder contract\b/i,
      /\bclosing on\b/i,
      /\bpre-?purchase\b/i,
      /\b(?:make|making|made|put|putting) an offer\b/i,
      /\blooking (?:for|at) (?:a |an |the )?(?:house|home|property|lot|land|building)\b/i,
    ],
  ],
  [
    'seller',
    [
      /\bsell(?:ing)?\b/i,
      /\bfor sale\b/i,
      /\bon the market\b/i,
      /\blistings?\b/i,
      /\blist (?:my|our|the) (?:house|home|property|lot|land|building)\b/i,
    ],
  ],
];

const NEGATION = /\b(?:not|no|never|don't|dont|won't|isn't|aren't|without)\b/i;
const QUOTE_MAX = 300;

/** Sentences (or lines) of a statement, trimmed, blanks dropped. */
const sentencesOf = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);

/** True when the words just before the match, within its clause, negate it. */
function negated(sentence: string, index: number): boolean {
  const clause = sentence.slice(0, index).split(/[,;:]/).pop() ?? '';
  const lastWords = clause.trim().split(/\s+/).slice(-4).join(' ');
  return NEGATION.test(lastWords);
}

const signals = (sentence: string, patterns: readonly RegExp[]): boolean =>
  patterns.some((pattern) => {
    const match = pattern.exec(sentence);
    return match !== null && !negated(sentence, match.index);
  });

/** The personas one sentence points to (investor alone when it has an investor signal). */
function personasOf(sentence: string): Persona[] {
  const found = SIGNALS.filter(([, patterns]) => signals(sentence, patterns)).map(([persona]) => persona);
  return found.includes('investor') ? ['investor'] : found;
}

function factsOf(statement: LeadStatement): PersonaFact[] {
  return sentencesOf(statement.text).flatMap((sentence) =>
    personasOf(sentence).map((indicates) => ({
      field: statement.field,
      ...(statement.ref ? { ref: statement.ref } : {}),
      quote: sentence.slice(0, QUOTE_MAX),
      indicates,
    })),
  );
}

function decide(facts: readonly PersonaFact[]): PersonaReading {
  if (facts.length === 0) {
    return {
      facts: [],
      basis:
        'Nothing the lead stated points to buying, selling or investing, so no persona is given; ask them what the work is for.',
    };
  }
  const tally = new Map<Persona, number>();
  for (const fact of facts) tally.set(fact.indicates, (tally.get(fact.indicates) ?? 0) + 1);
  const ranked = [...tally.entries()].sort((a, b) => b[1] - a[1]);
  const [top, runnerUp] = ranked;
  if (!top || (runnerUp && runnerUp[1] === top[1])) {
    const tied = ranked.filter(([, count]) => count === top?.[1]).map(([persona]) => persona);
    return {
      facts: [...facts],
      basis: `The lead's statements point equally to ${tied.join(' and ')}, so no persona is given; the quoted statements say why.`,
    };
  }
  const [persona, count] = top;
  return {
    persona,
    facts: [...facts],
    basis: `Read as ${persona} from ${count} of ${facts.length} statement(s) the lead made, by keyword rules over their own words; it describes what they asked for, never the person.`,
  };
}

export function createRuleBasedReader(): PersonaReader {
  return {
    name: RULE_BASED_READER_NAME,
    read: async (statements) => decide(statements.flatMap(factsOf)),
  };
}
