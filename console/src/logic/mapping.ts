/** The user fields a SAML attribute may carry (the API refuses any other path). */
export const USER_FIELDS = ['email', 'first_name', 'last_name', 'display_name', 'id'] as const;
export type UserField = (typeof USER_FIELDS)[number];

export interface MappingRow {
  claim: string;
  field: UserField;
}

export function rowsFromMapping(mapping: Record<string, string> | undefined): MappingRow[] {
  return Object.entries(mapping ?? {}).map(([claim, field]) => ({
    claim,
    field: (USER_FIELDS as readonly string[]).includes(field) ? (field as UserField) : 'email',
  }));
}

/** The attribute_mapping object of the rows, or the first problem (an empty or repeated claim name). */
export function mappingFromRows(rows: readonly MappingRow[]): { mapping: Record<string, string> } | { error: string } {
  const mapping: Record<string, string> = {};
  for (const row of rows) {
    const claim = row.claim.trim();
    if (!claim) return { error: 'Every attribute needs a name.' };
    if (claim in mapping) return { error: `The attribute ${claim} is listed twice.` };
    mapping[claim] = row.field;
  }
  return { mapping };
}
