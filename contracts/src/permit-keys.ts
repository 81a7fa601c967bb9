// Permit metadata: the keys a tenant's defaults and a project's override may hold, as data (the
// gateway's validation, the projects service and the docs read the same list). Values are text.
// Keys outside this list are dropped on write (spec, conventions 6), never stored.

export const PERMIT_KEYS = {
  operatorId: 'Drone operator registration (FAA, CAA or EASA operator ID, Transport Canada or CASA number).',
  operatorName: 'Legal name of the operating business.',
  remotePilotCertificate: 'Remote pilot certificate or licence number (Part 107, RePL, flyer ID).',
  insurer: 'Aviation liability insurer.',
  insurancePolicyNumber: 'Aviation liability policy number.',
  airspaceAuthorization: 'Airspace authorisation reference (LAANC, NAV CANADA, CAA permission).',
  ahj: 'Authority having jurisdiction over building permits at the site.',
  utility: 'Electric utility serving the site (interconnection).',
  parcelNumber: 'Assessor parcel number of the site.',
  contractorLicense: 'Contractor licence number for the permit application.',
  permitNumber: 'Permit number once issued.',
  notes: 'Free notes for the permit clerk.',
} as const;

export type PermitKey = keyof typeof PERMIT_KEYS;
export const PERMIT_KEY_NAMES = Object.keys(PERMIT_KEYS) as PermitKey[];
export const MAX_PERMIT_VALUE_LENGTH = 500;

export const isPermitKey = (key: string): key is PermitKey => Object.hasOwn(PERMIT_KEYS, key);

export interface PermitInput {
  /** Known keys with their text, or null to clear the key. */
  entries: { key: PermitKey; value: string | null }[];
  /** Keys outside PERMIT_KEYS, dropped. */
  dropped: string[];
  /** Known keys whose value is neither text (up to the length limit) nor null: a sentence each. */
  problems: string[];
}

/** Splits a sparse permit body into known entries, dropped keys and problems with known keys. */
export function splitPermitInput(body: Readonly<Record<string, unknown>>): PermitInput {
  const input: PermitInput = { entries: [], dropped: [], problems: [] };
  for (const [key, value] of Object.entries(body)) {
    if (!isPermitKey(key)) input.dropped.push(key);
    else if (value === null) input.entries.push({ key, value: null });
    else if (typeof value !== 'string') input.problems.push(`${key} must be text or null (null clears it)`);
    else if (value.length > MAX_PERMIT_VALUE_LENGTH)
      input.problems.push(`${key} must be at most ${MAX_PERMIT_VALUE_LENGTH} characters`);
    else input.entries.push({ key, value: value.trim() === '' ? null : value.trim() });
  }
  return input;
}
