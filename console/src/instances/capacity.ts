/** Capacity arithmetic from the sizing catalog (never from constants: the AKU definition is versioned). */
import type { Capacity, SizingCatalog } from '../api/types';

export function capacityFor(aku: number, catalog: SizingCatalog): Capacity {
  return {
    writeMiBps: aku * catalog.aku.writeMiBps,
    readMiBps: aku * catalog.aku.readMiBps,
    requestsPerSecond: aku * catalog.aku.requestsPerSecond,
    partitions: aku * catalog.aku.partitions,
  };
}

/** brokers = max(minBrokers, ⌈AKU / akuPerBroker⌉), as the catalog documents. */
export function brokersFor(aku: number, catalog: SizingCatalog): { instanceType: string; brokerCount: number } | undefined {
  const compute = catalog.compute[0];
  if (!compute) return undefined;
  return {
    instanceType: compute.instanceType,
    brokerCount: Math.max(compute.minBrokers, Math.ceil(aku / compute.akuPerBroker - 1e-9)),
  };
}

export function fsxOption(throughputMBps: number, catalog: SizingCatalog) {
  return catalog.fsx.find((o) => o.throughputMBps === throughputMBps);
}

export function benchmarkedFsx(catalog: SizingCatalog) {
  return catalog.fsx.filter((o) => o.benchmarked && o.kafkaWriteMiBps !== null);
}

/** Kafka write capacity of `count` file systems of `throughputMBps`; undefined when not benchmarked. */
export function fsxWriteCapacity(throughputMBps: number, count: number, catalog: SizingCatalog): number | undefined {
  const option = fsxOption(throughputMBps, catalog);
  if (!option || !option.benchmarked || option.kafkaWriteMiBps === null) return undefined;
  return option.kafkaWriteMiBps * count;
}

export interface FsxFit {
  neededMiBps: number;
  availableMiBps: number;
  fits: boolean;
  /** How to make it fit, as the API words it (e.g. "2 × 768 MBps or 1 × 1536 MBps, or lower AKU to 15"). */
  fix?: string;
}

export function fsxFit(aku: number, throughputMBps: number, count: number, catalog: SizingCatalog): FsxFit | undefined {
  const option = fsxOption(throughputMBps, catalog);
  const available = fsxWriteCapacity(throughputMBps, count, catalog);
  if (!option || available === undefined || option.kafkaWriteMiBps === null) return undefined;
  const needed = aku * catalog.aku.writeMiBps;
  if (needed <= available) return { neededMiBps: needed, availableMiBps: available, fits: true };
  const fixes = [`${Math.ceil(needed / option.kafkaWriteMiBps)} × ${throughputMBps} MBps`];
  const bigger = benchmarkedFsx(catalog).find(
    (o) => o.throughputMBps > throughputMBps && count * (o.kafkaWriteMiBps ?? 0) >= needed,
  );
  if (bigger) fixes.push(`${count} × ${bigger.throughputMBps} MBps`);
  let fix = fixes.join(' or ');
  const fittingAku = Math.floor(available / catalog.aku.writeMiBps);
  if (fittingAku >= catalog.aku.min) fix += `, or lower AKU to ${fittingAku}`;
  return { neededMiBps: needed, availableMiBps: available, fits: false, fix };
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A byte count scaled to the largest binary unit it fills at least once: [scaled, unit]. */
export function inByteUnits(value: number): [number, string] {
  let scaled = value;
  let unit = 0;
  while (Math.abs(scaled) >= 1024 && unit < BYTE_UNITS.length - 1) {
    scaled /= 1024;
    unit++;
  }
  return [scaled, BYTE_UNITS[unit]];
}

export function formatBytes(value: number): string {
  const [scaled, unit] = inByteUnits(value);
  return `${formatNumber(scaled)} ${unit}`;
}

/** Units of things that come whole: a bill counts them, it does not measure them. */
const COUNTED_UNITS = new Set(['instance', 'instances', 'file system', 'file systems', 'requests', 'AKU-hours']);

/**
 * A quantity as a bill shows it: things counted are whole (91,928,672 requests, not 91,928,671.88), amounts are
 * whole from 10 up and keep two decimals below (0.5 GiB).
 */
export function formatQuantity(quantity: number, unit: string): string {
  const whole = COUNTED_UNITS.has(unit) || Math.abs(quantity) >= 10;
  return `${new Intl.NumberFormat('en-US', { maximumFractionDigits: whole ? 0 : 2 }).format(quantity)} ${unit}`;
}

export function formatUsd(value: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);
}

/**
 * A change, signed even when it grows (+$800, −$400) so the direction never depends on color; a
 * true minus sign, and none on an amount that rounds to zero, so nothing reads "+$0".
 */
export function formatSigned(value: number, format: (magnitude: number) => string): string {
  const magnitude = format(Math.abs(value));
  if (magnitude === format(0)) return magnitude;
  return `${value > 0 ? '+' : '\u2212'}${magnitude}`;
}
