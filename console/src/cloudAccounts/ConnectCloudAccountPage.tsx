import { useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Multiselect from '@cloudscape-design/components/multiselect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TextContent from '@cloudscape-design/components/text-content';
import { useSizingCatalog } from '../api/catalog';
import { useDownloadOnboardingTemplate, useRegisterCloudAccount } from '../api/cloudAccounts';
import { ApiError, describeError, mapFieldErrors, type FieldErrors } from '../api/problem';
import type { CloudAccountRegistration } from '../api/types';
import { AppShell } from '../app/AppShell';
import { Copyable } from '../app/common';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';
import { verificationNotice } from './verification';

const f = strings.cloudAccounts.form;
const c = f.createRole;
const r = strings.cloudAccounts.rules;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::([0-9]{12}):role\/.+$/;
/** The contract's DnsName. */
const NAME_PATTERN = /^[a-z][a-z0-9-]{1,62}[a-z0-9]$/;

/** The API's registration rules (CloudAccounts.java), with its messages. */
export function validateRegistration(form: CloudAccountRegistration): FieldErrors {
  const errors: FieldErrors = {};
  if (!NAME_PATTERN.test(form.name)) errors.name = r.name;
  if (!/^[0-9]{12}$/.test(form.awsAccountId)) errors.awsAccountId = r.accountId;
  const arn = ROLE_ARN.exec(form.roleArn);
  if (!arn) errors.roleArn = r.roleArn;
  else if (errors.awsAccountId === undefined && arn[1] !== form.awsAccountId) errors.roleArn = r.roleAccount(arn[1], form.awsAccountId);
  if (form.regions.length < 1 || form.regions.length > 20) errors.regions = r.regions;
  return errors;
}

export default function ConnectCloudAccountPage() {
  const navigate = useNavigate();
  const { organization, canEdit } = useSession();
  const { notify } = useNotifications();
  const catalog = useSizingCatalog();
  const register = useRegisterCloudAccount();
  const template = useDownloadOnboardingTemplate();
  const [form, setForm] = useState<CloudAccountRegistration>({ name: '', awsAccountId: '', roleArn: '', regions: [] });
  const [submitted, setSubmitted] = useState(false);
  const [apiErrors, setApiErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | undefined>();
  const clientErrors = submitted ? validateRegistration(form) : {};
  const errors = { ...apiErrors, ...clientErrors };
  const set = (patch: Partial<CloudAccountRegistration>) => {
    setForm((current) => ({ ...current, ...patch }));
    setApiErrors((all) => Object.fromEntries(Object.entries(all).filter(([k]) => !Object.keys(patch).some((p) => k.startsWith(p)))));
  };

  const submit = async () => {
    setSubmitted(true);
    setFormError(undefined);
    if (Object.keys(validateRegistration(form)).length > 0) return;
    try {
      const account = await register.mutateAsync(form);
      // Verified or not, the list is where the account lives: the warning says what to fix, Verify is there.
      notify(verificationNotice(account, f.connected(account.name), f.connectedUnverified(account.name)));
      navigate('/cloud-accounts');
    } catch (error) {
      const { fields, unmatched } = mapFieldErrors(error, ['name', 'awsAccountId', 'roleArn', 'regions']);
      setApiErrors(fields);
      if (Object.keys(fields).length === 0 || unmatched.length > 0 || !(error instanceof ApiError)) setFormError(describeError(error));
    }
  };

  const trustCondition = JSON.stringify({ StringEquals: { 'sts:ExternalId': organization.externalId } }, null, 2);
  return (
    <AppShell
      contentType="form"
      breadcrumbs={[
        { text: strings.cloudAccounts.title, href: '/cloud-accounts' },
        { text: f.title, href: '/cloud-accounts/connect' },
      ]}
      content={
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Form
            header={<Header variant="h1" description={f.description}>{f.title}</Header>}
            errorText={formError}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button formAction="none" variant="link" onClick={() => navigate('/cloud-accounts')}>
                  {strings.common.cancel}
                </Button>
                <Button variant="primary" data-testid="connect-submit" loading={register.isPending} disabled={!canEdit}>
                  {f.submit}
                </Button>
              </SpaceBetween>
            }
          >
            <SpaceBetween size="l">
              <Container
                header={
                  <Header
                    variant="h2"
                    description={c.description}
                    actions={
                      <Button
                        formAction="none"
                        iconName="download"
                        data-testid="download-template"
                        loading={template.isPending}
                        onClick={() => template.mutate()}
                      >
                        {c.download}
                      </Button>
                    }
                  >
                    {c.title}
                  </Header>
                }
              >
                <SpaceBetween size="l">
                  {template.error && (
                    <Alert type="error" header={c.downloadFailed}>
                      {describeError(template.error)}
                    </Alert>
                  )}
                  <TextContent>
                    <ol>
                      {c.steps.map((step) => (
                        <li key={step}>{step}</li>
                      ))}
                    </ol>
                  </TextContent>
                  <SpaceBetween size="s">
                    <Box variant="h3">{f.externalId}</Box>
                    <Alert type="info">{f.externalIdHelp}</Alert>
                    <Copyable text={organization.externalId} testId="external-id" />
                    <Box variant="awsui-key-label">{f.trustPolicy}</Box>
                    <Box variant="code">
                      <pre style={{ margin: 0 }}>{trustCondition}</pre>
                    </Box>
                  </SpaceBetween>
                </SpaceBetween>
              </Container>
              <Container header={<Header variant="h2" description={f.register.description}>{f.register.title}</Header>}>
                <SpaceBetween size="l">
                  <FormField label={f.name} constraintText={f.nameHint} errorText={errors.name}>
                    <Input data-testid="connect-name" value={form.name} onChange={({ detail }) => set({ name: detail.value.trim() })} />
                  </FormField>
                  <FormField label={f.accountId} constraintText={f.accountIdHint} errorText={errors.awsAccountId}>
                    <Input
                      data-testid="connect-account-id"
                      value={form.awsAccountId}
                      inputMode="numeric"
                      onChange={({ detail }) => set({ awsAccountId: detail.value.trim() })}
                    />
                  </FormField>
                  <FormField label={f.roleArn} constraintText={f.roleArnHint} errorText={errors.roleArn}>
                    <Input data-testid="connect-role-arn" value={form.roleArn} onChange={({ detail }) => set({ roleArn: detail.value.trim() })} />
                  </FormField>
                  <FormField
                    label={f.regions}
                    constraintText={f.regionsHint}
                    errorText={errors.regions ?? Object.entries(errors).find(([k]) => k.startsWith('regions['))?.[1]}
                  >
                    <Multiselect
                      data-testid="connect-regions"
                      placeholder={f.regionsPlaceholder}
                      deselectAriaLabel={(option) => strings.common.remove(option.label ?? '')}
                      statusType={catalog.isPending ? 'loading' : catalog.isError ? 'error' : 'finished'}
                      loadingText={strings.common.loading}
                      errorText={f.regionsFailed}
                      recoveryText={strings.common.retry}
                      onLoadItems={() => {
                        if (catalog.isError) void catalog.refetch();
                      }}
                      selectedOptions={form.regions.map((region) => ({ value: region, label: region }))}
                      options={(catalog.data?.regions ?? []).map((region) => ({ value: region, label: region }))}
                      onChange={({ detail }) => set({ regions: detail.selectedOptions.map((o) => o.value ?? '') })}
                    />
                  </FormField>
                </SpaceBetween>
              </Container>
            </SpaceBetween>
          </Form>
        </form>
      }
    />
  );
}
