package dev.keel.provisioner;

/** Where a broker's write-ahead log lives. */
public enum WalType {
    EBS, S3, FSWAL
}
