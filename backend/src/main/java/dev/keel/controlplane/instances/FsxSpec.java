package dev.keel.controlplane.instances;

/** FSx for ONTAP file systems backing an FSWAL instance: throughput of each, and how many. */
public record FsxSpec(Integer throughputMBps, Integer count) {
}
