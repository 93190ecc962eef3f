#!/bin/bash
# LocalStack init hook (docker-compose.yml): the queue AWS Marketplace's agreement events reach Keel through
# (KEEL_MARKETPLACE_QUEUE_URL), as scripts/stack makes it for runs without Docker.
set -euo pipefail
awslocal sqs create-queue --queue-name keel-agreement-events
