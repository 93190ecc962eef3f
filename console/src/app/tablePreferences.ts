import { useState } from 'react';
import type { CollectionPreferencesProps } from '@cloudscape-design/components/collection-preferences';

/** Table preferences saved in localStorage per table, as in the Cloudscape demos. */
export function useSavedPreferences(key: string, defaults: CollectionPreferencesProps.Preferences) {
  const storageKey = `keel.table.${key}`;
  const [preferences, setPreferences] = useState<CollectionPreferencesProps.Preferences>(() => {
    try {
      const saved = localStorage.getItem(storageKey);
      return saved ? { ...defaults, ...(JSON.parse(saved) as CollectionPreferencesProps.Preferences) } : defaults;
    } catch {
      return defaults;
    }
  });
  const save = (value: CollectionPreferencesProps.Preferences) => {
    setPreferences(value);
    try {
      localStorage.setItem(storageKey, JSON.stringify(value));
    } catch {
      // storage full or disabled: keep the preferences for this visit only
    }
  };
  return [preferences, save] as const;
}
