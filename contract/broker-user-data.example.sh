#!/bin/bash
# Keel broker: the node spec below, run by the Keel broker image below (broker-image/README.md).
set -euo pipefail
install -d -m 0700 /etc/keel /var/lib/keel-agent
umask 077
cat > /etc/keel/node-spec.json <<'KEEL_NODE_SPEC'
{"instanceId":"3f2a9c1e-0000-4000-8000-000000000001","instanceName":"orders","region":"us-east-1","brokerVersion":"4.1.0","aku":3,"brokerCount":3,"walType":"FSWAL","dataBucket":"keel-3f2a9c1e-0000-4000-8000-000000000001-data","opsBucket":"keel-3f2a9c1e-0000-4000-8000-000000000001-ops","listenerPort":9092,"controllerPort":9093,"nodeIdTag":"byoc:node-id","walFileSystems":1,"walFileSystemTag":"byoc:instance-id","ingestUrl":"https://keel.example/ingest","ingestToken":"token-of-orders","walNfsEndpoints":[{"index":0,"dnsName":"svm-0.fs-0.fsx.us-east-1.amazonaws.com","junctionPath":"/wal"}]}
KEEL_NODE_SPEC
dnf install -y docker
systemctl enable --now docker
BROKER_IMAGE='registry.example/keel-broker@sha256:abababababababababababababababababababababababababababababababab'
until docker pull "$BROKER_IMAGE"; do sleep 15; done
docker run -d --name keel-broker --restart unless-stopped --network host --privileged \
  -v /etc/keel:/etc/keel:ro -v /var/lib/keel-agent:/var/lib/keel-agent -v /dev:/dev \
  "$BROKER_IMAGE" --spec /etc/keel/node-spec.json --work-dir /var/lib/keel-agent
