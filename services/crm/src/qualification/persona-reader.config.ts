// Which persona reader a deployment runs, chosen by FIELDOPS_LEAD_QUALIFIER. Only the
// deterministic reader ships; a deployment that plugs in a model adds its adapter (implementing
// PersonaReader, with its own credentials from the environment) to READERS under a new name.
import { ConfigError } from '@fieldops/kit';
import type { PersonaReader } from './persona-reader.port.ts';
import { createRuleBasedReader } from './rule-based.reader.ts';

export const PERSONA_READER_VARIABLE = 'FIELDOPS_LEAD_QUALIFIER';

const READERS: Readonly<Record<string, () => PersonaReader>> = {
  rules: createRuleBasedReader,
};

export const DEFAULT_PERSONA_READER = 'rules';

/** Read once at start-up, so a misspelt reader stops the service instead of failing each call. */
export function personaReaderFromEnv(env: NodeJS.ProcessEnv = process.env): PersonaReader {
  const chosen = env[PERSONA_READER_VARIABLE]?.trim() || DEFAULT_PERSONA_READER;
  const make = Object.hasOwn(READERS, chosen) ? READERS[chosen] : undefined;
  if (!make) {
    throw new ConfigError([
      `${PERSONA_READER_VARIABLE} must be one of ${Object.keys(READERS).join(', ')} (got "${chosen}")`,
    ]);
  }
  return make();
}
