package dev.keel.controlplane.catalog;

/** Where a broker's write-ahead log lives. */
public enum WalType {
    EBS, S3, FSWAL
}
