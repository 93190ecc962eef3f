import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { plaintextInstance, runningInstance } from '../test/fixtures';
import { fakeApi, json, renderWithProviders } from '../test/render';
import { ConnectTab } from './ConnectTab';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('Connect tab', () => {
  it('gives a SASL_SSL client.properties that trusts the downloaded CA as PEM, and kcat the same settings', () => {
    renderWithProviders(<ConnectTab instance={runningInstance} />, { role: 'viewer' });

    const properties = screen.getByTestId('connect-properties').textContent ?? '';
    expect(properties).toContain('bootstrap.servers=10.0.1.17:9092');
    expect(properties).toContain('security.protocol=SASL_SSL');
    expect(properties).toContain('sasl.mechanism=SCRAM-SHA-512');
    expect(properties).toContain('ScramLoginModule required username="<username>" password="<password>";');
    expect(properties).toContain('ssl.truststore.type=PEM');
    expect(properties).toContain('ssl.truststore.location=orders-prod-ca.pem');
    const kcat = screen.getByTestId('connect-kcat').textContent ?? '';
    expect(kcat).toContain('-X sasl.mechanisms=SCRAM-SHA-512');
    expect(kcat).toContain("-X ssl.ca.location='orders-prod-ca.pem'");
    expect(screen.getByTestId('connect-java').textContent).toContain('props.load(in)');
    expect(screen.queryByTestId('connect-plaintext')).toBeNull();
  });

  it('downloads the CA certificate with the user’s token, under the instance’s name', async () => {
    const api = fakeApi({
      [`GET /instances/${runningInstance.id}/ca-certificate`]: () =>
        new Response(PEM, { headers: { 'Content-Type': 'application/x-pem-file' } }),
    });
    const saved: { name: string; text: string }[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      void blob.text().then((text) => saved.push({ name: '', text }));
      return 'blob:ca';
    });
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, text: '' });
    });
    renderWithProviders(<ConnectTab instance={runningInstance} />, { role: 'viewer', api });

    act(() => screen.getByTestId('download-ca').click());

    await waitFor(() => expect(saved.map((s) => s.name)).toContain('orders-prod-ca.pem'));
    await waitFor(() => expect(saved.map((s) => s.text)).toContain(PEM));
    expect(api.calls[0].headers.get('Authorization')).toBe('Bearer token');
    expect(api.calls[0].headers.get('Accept')).toContain('application/x-pem-file');
    clicked.mockRestore();
  });

  it('says why the CA could not be downloaded', async () => {
    const api = fakeApi({
      [`GET /instances/${runningInstance.id}/ca-certificate`]: () =>
        json({ type: 'https://keel.dev/problems/listener-unauthenticated', title: 'No CA', status: 409, detail: 'The instance has no CA.' }, 409),
    });
    renderWithProviders(<ConnectTab instance={runningInstance} />, { api });
    act(() => screen.getByTestId('download-ca').click());
    await waitFor(() => expect(screen.getByTestId('download-ca-error').textContent).toContain('The instance has no CA.'));
  });

  it('warns on a plaintext instance and gives plaintext settings, without a CA', () => {
    renderWithProviders(<ConnectTab instance={plaintextInstance} />);

    expect(screen.getByTestId('connect-plaintext').textContent).toContain('PLAINTEXT_UNAUTHENTICATED');
    const properties = screen.getByTestId('connect-properties').textContent ?? '';
    expect(properties).toBe('bootstrap.servers=10.0.1.17:9092\nsecurity.protocol=PLAINTEXT\n');
    expect(screen.queryByTestId('download-ca')).toBeNull();
  });
});
