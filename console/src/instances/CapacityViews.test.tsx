import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { catalogV1, catalogV2 } from '../test/fixtures';
import { CapacityReadout, FsxCapacityBar } from './CapacityViews';

describe('capacity readout', () => {
  it('shows what the AKU buy by catalog v1 (3 AKU = 60/60 MiB/s, 2,400 requests/s, 3,375 partitions)', () => {
    render(<CapacityReadout aku={3} catalog={catalogV1} />);
    expect(screen.getByTestId('capacity-write').textContent).toBe('60 MiB/s');
    expect(screen.getByTestId('capacity-read').textContent).toBe('60 MiB/s');
    expect(screen.getByTestId('capacity-requests').textContent).toBe('2,400 /s');
    expect(screen.getByTestId('capacity-partitions').textContent).toBe('3,375');
    expect(screen.getByTestId('capacity-brokers').textContent).toBe('3 × m7g.large');
  });

  it('follows the catalog, not constants', () => {
    render(<CapacityReadout aku={9} catalog={catalogV2} />);
    expect(screen.getByTestId('capacity-write').textContent).toBe('270 MiB/s');
    expect(screen.getByTestId('capacity-read').textContent).toBe('540 MiB/s');
    expect(screen.getByTestId('capacity-requests').textContent).toBe('9,000 /s');
    expect(screen.getByTestId('capacity-partitions').textContent).toBe('13,500');
    expect(screen.getByTestId('capacity-brokers').textContent).toBe('8 × m7g.large');
  });
});

describe('FSx capacity bar', () => {
  it('shows the AKU write need against the FSx write capacity when it fits', () => {
    render(<FsxCapacityBar aku={6} throughputMBps={768} count={1} catalog={catalogV1} />);
    const bar = screen.getByTestId('fsx-capacity');
    expect(bar.dataset.fits).toBe('true');
    expect(bar.textContent).toContain('AKU write need 120 MiB/s of 300 MiB/s FSx capacity');
    expect(screen.queryByTestId('fsx-capacity-fix')).toBeNull();
  });

  it('suggests the fix when the FSx capacity is short', () => {
    render(<FsxCapacityBar aku={10} throughputMBps={384} count={1} catalog={catalogV1} />);
    expect(screen.getByTestId('fsx-capacity').dataset.fits).toBe('false');
    expect(screen.getByTestId('fsx-capacity-fix').textContent).toContain('Use 2 × 384 MBps or 1 × 768 MBps, or lower AKU to 7.');
  });

  it('says how far past the capacity a need is, not a full bar', () => {
    render(<FsxCapacityBar aku={30} throughputMBps={384} count={1} catalog={catalogV1} />);
    const bar = screen.getByTestId('fsx-capacity');
    expect(bar.dataset.percent).toBe('400');
    expect(bar.textContent).toContain('The write need is 400 % of the FSx write capacity');
  });

  it('leaves the fix to the form when the form already shows it', () => {
    render(<FsxCapacityBar aku={10} throughputMBps={384} count={1} catalog={catalogV1} showFix={false} />);
    expect(screen.getByTestId('fsx-capacity').dataset.fits).toBe('false');
    expect(screen.queryByTestId('fsx-capacity-fix')).toBeNull();
  });

  it('shows nothing for a not-benchmarked throughput', () => {
    const { container } = render(<FsxCapacityBar aku={10} throughputMBps={3072} count={1} catalog={catalogV1} />);
    expect(container.textContent).toBe('');
  });
});
