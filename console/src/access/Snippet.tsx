import Box from '@cloudscape-design/components/box';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { strings } from '../i18n/strings';

/** A block of text to paste elsewhere (a config file, a command), with a button that copies it. */
export function Snippet({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <SpaceBetween size="xxs">
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Box variant="awsui-key-label">{label}</Box>
        <CopyToClipboard
          variant="button"
          textToCopy={text}
          copyButtonText={strings.common.copy}
          copySuccessText={strings.common.copied}
          copyErrorText={strings.common.copyFailed}
          data-testid={`${testId}-copy`}
        />
      </SpaceBetween>
      <Box variant="pre" data-testid={testId}>
        {text}
      </Box>
    </SpaceBetween>
  );
}
