import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useQueryClient } from '@tanstack/react-query';
import { instanceKeys, useUpdateInstance } from '../api/instances';
import { ApiError, describeError, mapFieldErrors } from '../api/problem';
import type { Instance, SizingCatalog } from '../api/types';
import { useNotifications } from '../app/notifications';
import { strings } from '../i18n/strings';
import { CapacityReadout, FsxCapacityBar } from './CapacityViews';
import { parseWholeNumber, validateAkuUpdate } from './specRules';

const u = strings.detail.update;

export function UpdateAkuModal({
  instance,
  etag,
  catalog,
  onClose,
  onStarted,
}: {
  instance: Instance;
  etag: string;
  catalog: SizingCatalog;
  onClose: () => void;
  onStarted: () => void;
}) {
  const [aku, setAku] = useState(String(instance.spec.aku));
  const [touched, setTouched] = useState(false);
  const [apiError, setApiError] = useState<unknown>(null);
  const update = useUpdateInstance(instance.id);
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const current = { aku: instance.spec.aku, walType: instance.spec.wal.type, fsx: instance.spec.fsx };
  const errors = validateAkuUpdate(aku, current, { catalog });
  const apiFields = mapFieldErrors(apiError, ['aku', 'fsx', 'fsx.count', 'fsx.throughputMBps']).fields;
  const newAku = parseWholeNumber(aku);
  const valid = newAku !== undefined && Object.keys(errors).length === 0;

  const apply = async () => {
    setTouched(true);
    if (!valid) return;
    setApiError(null);
    try {
      await update.mutateAsync({ patch: { aku: newAku }, etag });
      notify({ type: 'info', content: u.started(instance.name, newAku) });
      onStarted();
    } catch (error) {
      setApiError(error);
      if (error instanceof ApiError && error.status === 412) {
        await queryClient.invalidateQueries({ queryKey: instanceKeys.detail(instance.id) });
      }
    }
  };

  const fieldError = (touched ? errors.aku ?? errors['fsx.count'] : undefined) ?? apiFields.aku ?? apiFields['fsx.count'] ?? apiFields.fsx;
  return (
    <Modal
      closeAriaLabel={strings.common.close}
      visible
      onDismiss={onClose}
      header={u.title}
      data-testid="update-aku-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose}>
              {strings.common.cancel}
            </Button>
            <Button variant="primary" data-testid="update-aku-apply" loading={update.isPending} onClick={() => void apply()}>
              {u.apply}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="l">
        <FormField
          label={u.aku}
          constraintText={strings.wizard.storage.akuHint(catalog.aku.min, catalog.aku.max, catalog.aku.writeMiBps, catalog.aku.readMiBps)}
          errorText={fieldError}
        >
          <Input data-testid="update-aku-input" type="number" inputMode="numeric" value={aku} onChange={({ detail }) => setAku(detail.value)} />
        </FormField>
        <Header variant="h3">{`${u.current}: ${instance.spec.aku} AKU`}</Header>
        <CapacityReadout aku={instance.spec.aku} catalog={catalog} testId="current-capacity" />
        {newAku !== undefined && newAku >= catalog.aku.min && newAku <= catalog.aku.max && (
          <>
            <Header variant="h3">{`${u.new}: ${newAku} AKU`}</Header>
            <CapacityReadout aku={newAku} catalog={catalog} testId="new-capacity" />
            {instance.spec.fsx && (
              <FsxCapacityBar aku={newAku} throughputMBps={instance.spec.fsx.throughputMBps} count={instance.spec.fsx.count} catalog={catalog} />
            )}
          </>
        )}
        {apiError instanceof ApiError && apiError.status === 412 && <Alert type="warning">{u.stale}</Alert>}
        {apiError !== null && !(apiError instanceof ApiError && (apiError.status === 412 || apiError.fieldErrors.length > 0)) && (
          <Alert type="error">{describeError(apiError)}</Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
