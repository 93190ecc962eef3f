import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import { strings } from '../../i18n/strings';
import { errorFor, type StepProps } from './types';

const s = strings.wizard.basics;

export function BasicsStep({ draft, update, errors, accounts }: StepProps) {
  const { basics } = draft;
  const account = accounts.find((a) => a.id === basics.cloudAccountId);
  const accountOption = account ? { value: account.id, label: account.name, description: account.awsAccountId } : null;
  const regionOptions = (account?.regions ?? []).map((r) => ({ value: r, label: r }));
  return (
    <Container header={<Header variant="h2" description={s.description}>{s.title}</Header>}>
      <SpaceBetween size="l">
        <FormField label={s.name} constraintText={s.nameHint} errorText={errorFor(errors, 'name')}>
          <Input
            data-testid="wizard-name"
            value={basics.name}
            onChange={({ detail }) => update('basics', { name: detail.value })}
            ariaRequired
          />
        </FormField>
        <FormField
          label={s.cloudAccount}
          errorText={errorFor(errors, 'cloudAccountId')}
          description={accounts.length === 0 ? <>{s.noAccounts} <Link href="/cloud-accounts/connect">{s.connectAccount}</Link></> : undefined}
        >
          <Select
            data-testid="wizard-cloud-account"
            selectedOption={accountOption}
            placeholder={s.cloudAccountPlaceholder}
            // Only a verified account can host an instance; the others show why they cannot be chosen.
            options={accounts.map((a) => ({
              value: a.id,
              label: a.name,
              description: a.awsAccountId,
              disabled: a.status !== 'VERIFIED',
              disabledReason: a.status !== 'VERIFIED' ? s.accountNotVerified(strings.states[a.status] ?? a.status) : undefined,
            }))}
            onChange={({ detail }) => {
              const next = accounts.find((a) => a.id === detail.selectedOption.value);
              update('basics', {
                cloudAccountId: detail.selectedOption.value ?? '',
                region: next && next.regions.includes(basics.region) ? basics.region : (next?.regions[0] ?? ''),
              });
            }}
          />
        </FormField>
        <FormField label={s.region} constraintText={s.regionHint} errorText={errorFor(errors, 'region')}>
          <Select
            data-testid="wizard-region"
            selectedOption={basics.region ? { value: basics.region, label: basics.region } : null}
            placeholder={s.regionPlaceholder}
            options={regionOptions}
            disabled={!account}
            onChange={({ detail }) => update('basics', { region: detail.selectedOption.value ?? '' })}
          />
        </FormField>
        <FormField label={strings.deletionProtection.label} description={strings.deletionProtection.description}>
          <Toggle
            data-testid="wizard-deletion-protection"
            checked={basics.deletionProtection}
            onChange={({ detail }) => update('basics', { deletionProtection: detail.checked })}
          >
            {basics.deletionProtection ? strings.deletionProtection.on : strings.deletionProtection.off}
          </Toggle>
        </FormField>
      </SpaceBetween>
    </Container>
  );
}
