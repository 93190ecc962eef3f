import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';

/** A message alone on the page, before the console's layout exists (signing in, no organization). */
export function Centered({ children }: { children: ReactNode }) {
  return (
    <Box padding="xxxl" textAlign="center">
      {children}
    </Box>
  );
}
