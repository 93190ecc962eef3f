import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCollection } from '@cloudscape-design/collection-hooks';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import { useCloudAccounts, useDeleteCloudAccount, useVerifyCloudAccount } from '../api/cloudAccounts';
import { describeError } from '../api/problem';
import type { CloudAccount } from '../api/types';
import { AppShell } from '../app/AppShell';
import { EmptyState, formatDate, LoadError } from '../app/common';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { TableFilter, TablePagination } from '../app/tableParts';
import { strings } from '../i18n/strings';
import { AccountStatus, verificationNotice } from './verification';

const s = strings.cloudAccounts;

export default function CloudAccountsPage() {
  const navigate = useNavigate();
  const { canEdit } = useSession();
  const { notify } = useNotifications();
  const accounts = useCloudAccounts();
  const remove = useDeleteCloudAccount();
  const verify = useVerifyCloudAccount();
  const [selected, setSelected] = useState<CloudAccount[]>([]);
  const [confirming, setConfirming] = useState<CloudAccount | null>(null);
  const verifySelected = (account: CloudAccount) =>
    verify.mutateAsync(account.id).then(
      (checked) => notify(verificationNotice(checked, s.verification.verified(checked.name), s.verification.notVerified(checked.name))),
      (error: unknown) => notify({ type: 'error', header: s.verifyFailed, content: describeError(error) }),
    );
  const connect = canEdit ? (
    <Button variant="primary" data-testid="connect-cloud-account" onClick={() => navigate('/cloud-accounts/connect')}>
      {s.connect}
    </Button>
  ) : null;
  const { items, collectionProps, filterProps, paginationProps, filteredItemsCount, actions } = useCollection(accounts.data ?? [], {
    filtering: {
      filteringFunction: (a, text) => a.name.includes(text.toLowerCase()) || a.awsAccountId.includes(text),
      empty: <EmptyState title={s.emptyTitle} subtitle={s.emptyBody} action={connect} />,
      noMatch: (
        <EmptyState title={strings.common.noMatch} action={<Button onClick={() => actions.setFiltering('')}>{strings.common.clearFilter}</Button>} />
      ),
    },
    pagination: { pageSize: 20 },
    sorting: { defaultState: { sortingColumn: { sortingField: 'createdAt' }, isDescending: true } },
  });
  return (
    <AppShell
      contentType="table"
      breadcrumbs={[{ text: s.title, href: '/cloud-accounts' }]}
      content={
        <SpaceBetween size="m">
          {accounts.error && <LoadError header={s.loadFailed} error={accounts.error} onRetry={() => void accounts.refetch()} />}
          <Table
            {...collectionProps}
            data-testid="cloud-accounts-table"
            variant="full-page"
            items={items}
            loading={accounts.isPending}
            loadingText={strings.common.loading}
            selectionType={canEdit ? 'single' : undefined}
            selectedItems={selected}
            onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
            trackBy="id"
            ariaLabels={{
              tableLabel: s.title,
              selectionGroupLabel: s.title,
              itemSelectionLabel: (_, a) => a.name,
            }}
            header={
              <Header
                variant="awsui-h1-sticky"
                description={s.description}
                counter={accounts.data ? `(${accounts.data.length})` : undefined}
                actions={
                  canEdit && (
                    <SpaceBetween direction="horizontal" size="xs">
                      <Button
                        data-testid="verify-account"
                        disabled={selected.length !== 1}
                        loading={verify.isPending}
                        onClick={() => void verifySelected(selected[0])}
                      >
                        {s.verify}
                      </Button>
                      <Button data-testid="delete-cloud-account" disabled={selected.length !== 1} onClick={() => setConfirming(selected[0])}>
                        {strings.common.delete}
                      </Button>
                      {connect}
                    </SpaceBetween>
                  )
                }
              >
                {s.title}
              </Header>
            }
            filter={<TableFilter filterProps={filterProps} matches={filteredItemsCount} />}
            pagination={<TablePagination paginationProps={paginationProps} />}
            columnDefinitions={[
              { id: 'name', header: s.columns.name, cell: (a) => <span data-testid={`cloud-account-${a.name}`}>{a.name}</span>, sortingField: 'name', isRowHeader: true },
              { id: 'account', header: s.columns.account, cell: (a) => a.awsAccountId, sortingField: 'awsAccountId' },
              { id: 'role', header: s.columns.role, cell: (a) => a.roleArn },
              { id: 'regions', header: s.columns.regions, cell: (a) => a.regions.join(', ') },
              { id: 'status', header: s.columns.status, cell: (a) => <AccountStatus account={a} />, sortingField: 'status' },
              { id: 'created', header: s.columns.created, cell: (a) => formatDate(a.createdAt), sortingField: 'createdAt' },
            ]}
          />
          {confirming && (
            <Modal
      closeAriaLabel={strings.common.close}
              visible
              header={s.deleteTitle}
              onDismiss={() => setConfirming(null)}
              footer={
                <Box float="right">
                  <SpaceBetween direction="horizontal" size="xs">
                    <Button variant="link" onClick={() => setConfirming(null)}>
                      {strings.common.cancel}
                    </Button>
                    <Button
                      variant="primary"
                      data-testid="delete-cloud-account-confirm"
                      loading={remove.isPending}
                      onClick={() =>
                        void remove.mutateAsync(confirming.id).then(
                          () => {
                            notify({ type: 'success', content: s.deleted(confirming.name) });
                            setConfirming(null);
                            setSelected([]);
                          },
                          () => undefined,
                        )
                      }
                    >
                      {strings.common.delete}
                    </Button>
                  </SpaceBetween>
                </Box>
              }
            >
              <SpaceBetween size="m">
                <Box variant="p">{s.deleteBody(confirming.name)}</Box>
                {remove.error && <Alert type="error">{describeError(remove.error)}</Alert>}
              </SpaceBetween>
            </Modal>
          )}
        </SpaceBetween>
      }
    />
  );
}
