import { createContext, useContext } from 'react';
import type { Organization, Role } from '../api/types';

export interface Session {
  organization: Organization;
  role: Role;
  /** Editors and admins change instances and cloud accounts; viewers only read. */
  canEdit: boolean;
  /** Acts in another of the user's organizations from now on, starting at `path` (default the instances). */
  switchOrganization: (slug: string, path?: string) => void;
  signOut: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionContext');
  return session;
}

export function canEdit(role: Role): boolean {
  return role === 'editor' || role === 'admin';
}
