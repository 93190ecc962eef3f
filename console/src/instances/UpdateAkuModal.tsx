import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useQueryClient } from '@tanstack/react-query';
import { useEstimate } from '../api/estimates';
import { instanceKeys, useUpdateInstance } from '../api/instances';
import { useUpdatePlan } from '../api/plans';
import { ApiError, describeError, mapFieldErrors } from '../api/problem';
import type { Instance, SizingCatalog } from '../api/types';
import { LoadError, useDebouncedValue } from '../app/common';
import { ConfirmModal } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { strings } from '../i18n/strings';
import { CapacityReadout } from './CapacityViews';
import { CostChange } from './CostChange';
import { FsxFields } from './FsxFields';
import { PlanView } from './PlanView';
import {
  akuInRange,
  currentCapacityOf,
  pricedSpecOf,
  toEstimateRequest,
  toUpdate,
  updateDraftOf,
  validateUpdate,
  withUpdate,
  type UpdateDraft,
} from './specRules';

const u = strings.detail.update;

/** Plans and prices only the value typed last, not every keystroke on the way to it. */
export const PLAN_DELAY_MS = 400;

const FIELDS = ['aku', 'fsx', 'fsx.count', 'fsx.throughputMBps'];

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
  const current = currentCapacityOf(instance);
  const [draft, setDraft] = useState<UpdateDraft>(() => updateDraftOf(current));
  const [touched, setTouched] = useState(false);
  const [apiError, setApiError] = useState<unknown>(null);
  const update = useUpdateInstance(instance.id);
  const queryClient = useQueryClient();
  const { follow } = useNotifications();
  const errors = validateUpdate(draft, current, catalog);
  const valid = Object.keys(errors).length === 0;
  const patch = valid ? toUpdate(draft, current) : undefined;
  const settledPatch = useDebouncedValue(patch, PLAN_DELAY_MS);
  const plan = useUpdatePlan(instance.id, settledPatch);
  // Both sides through POST /estimates, not the current side from GET …/cost-estimate: that one
  // prices with the instance's own catalog version, so a catalog change would pass for a cost of the update.
  const pricedSpec = pricedSpecOf(instance);
  const currentCost = useEstimate(toEstimateRequest(pricedSpec));
  const proposedCost = useEstimate(settledPatch && toEstimateRequest(withUpdate(pricedSpec, settledPatch)));
  const shownAku = akuInRange(draft.aku, catalog);
  // What Apply would rest on: today's cost and, for a change, its cost and plan. One message says what failed,
  // and Apply waits until all of it is in.
  const loads = settledPatch ? [currentCost, proposedCost, plan] : [currentCost];
  // A plan the API refuses on a field (a capacity the contract, the budget or the trial does not allow) is an
  // answer, not a failed load: its reason goes on the field, as Apply's would, where no Retry is offered.
  const refusal = mapFieldErrors(plan.error, FIELDS).fields;
  const refused = Object.keys(refusal).length > 0;
  const apiFields = { ...refusal, ...mapFieldErrors(apiError, FIELDS).fields };
  const failed = loads.filter((q) => q.isError && !(q === plan && refused));
  const waiting = patch !== undefined && (JSON.stringify(settledPatch) !== JSON.stringify(patch) || loads.some((q) => q.isPending));

  const apply = async () => {
    setTouched(true);
    if (!patch) return;
    setApiError(null);
    try {
      const operation = await update.mutateAsync({ patch, etag });
      const fsx = patch.fsx && draft.fsx ? strings.detail.fsxValue(Number(draft.fsx.fsxCount), draft.fsx.fsxThroughput) : undefined;
      follow({ operation, instanceName: instance.name, started: u.started(instance.name, Number(draft.aku), fsx) });
      onStarted();
    } catch (error) {
      setApiError(error);
      if (error instanceof ApiError && error.status === 412) {
        await queryClient.invalidateQueries({ queryKey: instanceKeys.detail(instance.id) });
      }
    }
  };

  // The rules' errors wait for Apply (the form opens on the current spec, which is a no-op);
  // the API's answer shows at once.
  const shown = (field: string) => (touched ? errors[field] : undefined) ?? apiFields[field];
  return (
    <ConfirmModal
      header={u.title}
      testId="update-aku-modal"
      size="large"
      onClose={onClose}
      confirm={{
        label: u.apply,
        testId: 'update-aku-apply',
        loading: update.isPending,
        disabled: patch !== undefined && (failed.length > 0 || waiting || refused),
        onConfirm: () => void apply(),
      }}
    >
      <SpaceBetween size="l">
        <FormField
          data-testid="update-aku-field"
          label={u.aku}
          constraintText={strings.wizard.storage.akuHint(catalog.aku.min, catalog.aku.max, catalog.aku.writeMiBps, catalog.aku.readMiBps)}
          errorText={shown('aku')}
        >
          <Input
            data-testid="update-aku-input"
            type="number"
            inputMode="numeric"
            value={draft.aku}
            onChange={({ detail }) => setDraft((d) => ({ ...d, aku: detail.value }))}
          />
        </FormField>
        {draft.fsx && (
          <FsxFields
            value={draft.fsx}
            onChange={(change) => setDraft((d) => ({ ...d, fsx: d.fsx && { ...d.fsx, ...change } }))}
            aku={shownAku}
            catalog={catalog}
            errors={{ throughput: shown('fsx.throughputMBps'), count: shown('fsx.count') ?? apiFields.fsx }}
            testIdPrefix="update"
          />
        )}
        <Header variant="h3">{`${u.current}: ${instance.spec.aku} AKU`}</Header>
        <CapacityReadout aku={instance.spec.aku} catalog={catalog} testId="current-capacity" />
        {shownAku !== undefined && (
          <>
            <Header variant="h3">{`${u.new}: ${shownAku} AKU`}</Header>
            <CapacityReadout aku={shownAku} catalog={catalog} testId="new-capacity" />
          </>
        )}
        {failed.length > 0 && (
          <LoadError
            header={u.loadFailed}
            error={failed[0].error}
            testId="update-load-error"
            onRetry={() => failed.forEach((q) => void q.refetch())}
          />
        )}
        <CostChange current={currentCost} proposed={patch ? proposedCost : undefined} />
        {patch && !refused && <PlanView query={plan} description={strings.plan.updateDescription} variant="embedded" errorShown />}
        {apiError instanceof ApiError && apiError.status === 412 && <Alert type="warning">{u.stale}</Alert>}
        {apiError !== null && !(apiError instanceof ApiError && (apiError.status === 412 || apiError.fieldErrors.length > 0)) && (
          <Alert type="error">{describeError(apiError)}</Alert>
        )}
      </SpaceBetween>
    </ConfirmModal>
  );
}
