import { useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@cloudscape-design/components/alert';
import HelpPanel from '@cloudscape-design/components/help-panel';
import Spinner from '@cloudscape-design/components/spinner';
import { adminCredentialsNotice } from '../access/adminCredentials';
import { useSizingCatalog } from '../api/catalog';
import { useCloudAccounts } from '../api/cloudAccounts';
import { useCreateInstance } from '../api/instances';
import { ApiError, describeError } from '../api/problem';
import { AppShell } from '../app/AppShell';
import { LoadError } from '../app/common';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';
import { InstanceWizard, STEPS } from './wizard/InstanceWizard';
import type { StepKey } from './wizard/types';

export default function CreateInstancePage() {
  const navigate = useNavigate();
  const { canEdit } = useSession();
  const { notify, follow } = useNotifications();
  const catalog = useSizingCatalog();
  const accounts = useCloudAccounts();
  const create = useCreateInstance();
  const [step, setStep] = useState<StepKey>('basics');
  const w = strings.wizard;

  let content;
  if (!canEdit) {
    content = <Alert type="warning">{strings.common.requestFailed}</Alert>;
  } else if (catalog.error || accounts.error) {
    content = (
      <LoadError
        header={w.loadFailed}
        error={catalog.error ?? accounts.error}
        onRetry={() => [catalog, accounts].filter((q) => q.isError).forEach((q) => void q.refetch())}
      />
    );
  } else if (!catalog.data || !accounts.data) {
    content = <Spinner size="large" />;
  } else {
    content = (
      <InstanceWizard
        catalog={catalog.data}
        accounts={accounts.data}
        onStepChange={setStep}
        onCancel={() => navigate('/instances')}
        onSubmit={async (body) => {
          try {
            const { adminCredentials, ...operation } = await create.mutateAsync(body);
            follow({ operation, instanceName: body.name, started: w.created(body.name) });
            if (adminCredentials) notify(adminCredentialsNotice(operation.instanceId, body.name, adminCredentials));
            navigate(`/instances/${operation.instanceId}`);
          } catch (error) {
            if (!(error instanceof ApiError) || error.fieldErrors.length === 0) {
              notify({ type: 'error', header: w.apiRejected, content: describeError(error) });
            }
            throw error;
          }
        }}
      />
    );
  }
  const current = STEPS.find((s) => s.stateKey === step) ?? STEPS[0];
  return (
    <AppShell
      contentType="wizard"
      breadcrumbs={[
        { text: strings.instances.title, href: '/instances' },
        { text: w.title, href: '/instances/create' },
      ]}
      tools={
        <HelpPanel header={<h2>{current.title}</h2>}>
          <p>{w.help[current.stateKey]}</p>
        </HelpPanel>
      }
      content={content}
    />
  );
}
