// The permit metadata in effect: the tenant's defaults with the project's override merged over
// them, key by key. The override never changes the defaults; clearing an override key lets the
// default show through again.

export type PermitValues = Record<string, string>;

export interface EffectivePermit {
  metadata: PermitValues;
  values: { key: string; value: string; source: 'tenant' | 'project' }[];
}

export function mergePermit(defaults: PermitValues, override: PermitValues): EffectivePermit {
  const metadata = { ...defaults, ...override };
  const values = Object.keys(metadata)
    .sort()
    .map((key) => ({
      key,
      value: metadata[key] as string,
      source: Object.hasOwn(override, key) ? ('project' as const) : ('tenant' as const),
    }));
  return { metadata, values };
}

/** `values` with the sparse entries applied: a text sets the key, null removes it. */
export function applyEntries(
  values: PermitValues,
  entries: readonly { key: string; value?: string | null }[],
): PermitValues {
  const next = { ...values };
  for (const { key, value } of entries) {
    if (value === undefined || value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
