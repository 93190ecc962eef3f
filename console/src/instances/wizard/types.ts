import type { FieldErrors } from '../../api/problem';
import type { CloudAccount, SizingCatalog } from '../../api/types';
import type { SpecDraft } from '../specRules';

export type StepKey = keyof SpecDraft | 'review';

export interface StepProps {
  draft: SpecDraft;
  update: <K extends keyof SpecDraft>(key: K, patch: Partial<SpecDraft[K]>) => void;
  errors: FieldErrors;
  catalog: SizingCatalog;
  accounts: CloudAccount[];
  goToStep: (key: StepKey) => void;
  /** Errors the API returned that no field shows. */
  unmatched: { field: string; message: string }[];
}

/** The messages on `fields`, each said once. */
export function errorFor(errors: FieldErrors, ...fields: string[]): string | undefined {
  const messages = new Set(fields.map((f) => errors[f]).filter((m): m is string => Boolean(m)));
  return messages.size ? [...messages].join(' ') : undefined;
}
