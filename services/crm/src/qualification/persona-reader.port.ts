// The port lead qualification reads through: what the lead stated goes in, a persona with the
// statements it relied on comes out. The default adapter is a deterministic rule-based reader
// (rule-based.reader.ts); a deployment can plug in a model behind the same port
// (persona-reader.config.ts selects it from the environment).

export const PERSONAS = ['buyer', 'seller', 'investor'] as const;
export type Persona = (typeof PERSONAS)[number];

/** Where the lead made a statement: its message, or an inbound message logged against it. */
export type StatementField = 'message' | 'inbound_message';

/** One thing the lead stated, in its own words. */
export interface LeadStatement {
  field: StatementField;
  /** The inbound message id when field is inbound_message. */
  ref?: string;
  text: string;
}

/** A statement the reading relied on, and the persona it points to. */
export interface PersonaFact {
  field: StatementField;
  ref?: string;
  /** The words relied on, as the lead wrote them. */
  quote: string;
  indicates: Persona;
}

export interface PersonaReading {
  /** Absent when nothing the lead stated points to one persona more than another. */
  persona?: Persona;
  /** Every statement relied on, including those that point elsewhere. */
  facts: PersonaFact[];
  /** A sentence saying how the persona was read, for the person reviewing it. */
  basis: string;
}

export interface PersonaReader {
  /** Names the method and its version in every answer (for example rules/v1). */
  readonly name: string;
  /** Reads only what it is given; `signal` aborts a slow (remote) reader when the caller gives up. */
  read(statements: readonly LeadStatement[], signal?: AbortSignal): Promise<PersonaReading>;
}
