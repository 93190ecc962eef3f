package dev.keel.controlplane.estimates;

import dev.keel.controlplane.instances.FsxSpec;
import dev.keel.controlplane.instances.WalSpec;

/** A spec not yet created, priced for a workload (by default, the spec's full AKU capacity for 72 hours). */
record EstimateRequest(String region, Integer zones, WalSpec wal, Integer aku, FsxSpec fsx, Workload workload) {
}
