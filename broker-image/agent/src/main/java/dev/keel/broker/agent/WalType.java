package dev.keel.broker.agent;

/** The instance's WAL type, as the control plane names it. */
public enum WalType {
    /** A gp3 volume per broker: block-device WAL. */
    EBS,
    /** WAL objects in the data bucket. */
    S3,
    /** A file WAL on an FSx for ONTAP volume mounted over NFSv4.1. */
    FSWAL
}
