"""Runs Schemathesis against the backend that backend/fuzz/run started, then sums up what it found.

Signs in as the fuzzer's admin, registers the cloud account its instances go to and seeds running
instances, so that chains along the links (list → get → patch → delete) and ids recorded from
responses reach real ones. Runs `st run` over the whole contract with every check in two passes
with one seed: the stateful phase first, while the seeded instances are there, then the examples,
coverage and fuzzing phases, which delete them along the way (extra arguments go to both passes).
Prints what was found per kind and what exclusions.toml excused; exits non-zero when anything was
found that is not excused, or an operation of the contract went untested.
"""

import json
import os
import random
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import yaml

FUZZ_DIR = Path(__file__).parent
API = os.environ["KEEL_FUZZ_API"]
ORG = os.environ["KEEL_FUZZ_ORG"]
CONTRACT = os.environ["KEEL_FUZZ_CONTRACT"]
REPORTS = Path(os.environ["KEEL_FUZZ_REPORTS"])
REGION = "us-east-1"

# Schemathesis' failure codes: ST101/ST102 are server errors; ST103 to ST111 are responses whose
# status, content type, headers or body the contract does not allow.
SERVER_ERRORS = {"ST101", "ST102"}
CONTRACT_BREACHES = {f"ST{code}" for code in range(103, 112)}


class Api:
    def __init__(self):
        form = urllib.parse.urlencode({"grant_type": "password", "client_id": "keel-cli",
                                       "username": os.environ["KEEL_FUZZ_USER"], "password": "keel-demo"}).encode()
        url = os.environ["KEEL_KEYCLOAK_URL"] + "/realms/byoc/protocol/openid-connect/token"
        with urllib.request.urlopen(url, form, timeout=30) as response:
            self.token = json.load(response)["access_token"]

    def call(self, method, path, body=None):
        request = urllib.request.Request(API + path, None if body is None else json.dumps(body).encode(), method=method,
                                         headers={"Authorization": "Bearer " + self.token, "X-Organization": ORG,
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)


def seed(api):
    """A verified cloud account (the no-cloud driver verifies any role not named unverifiable…) and two
    running instances of each WAL type in the network it lists."""
    account = api.call("POST", "/cloud-accounts", {"name": "fuzz-account", "awsAccountId": "000000000000",
                                                   "roleArn": "arn:aws:iam::000000000000:role/KeelFuzz",
                                                   "regions": [REGION]})
    if account["status"] != "VERIFIED":
        raise SystemExit(f"fuzz: the cloud account was not verified: {account}")
    vpc = api.call("GET", f"/cloud-accounts/{account['id']}/networks?region={REGION}")["vpcs"][0]
    placements = [{"availabilityZone": s["availabilityZone"], "subnetId": s["subnetId"]} for s in vpc["subnets"]]
    specs = [("s3", {"wal": {"type": "S3"}, "aku": 3}, placements[:1]),
             ("ebs", {"wal": {"type": "EBS"}, "aku": 3}, placements[:1]),
             ("fswal", {"wal": {"type": "FSWAL"}, "aku": 6, "fsx": {"throughputMBps": 384, "count": 1}}, placements)]
    operations = [api.call("POST", "/instances", {"name": f"seed-{kind}-{n}", "cloudAccountId": account["id"],
                                                  "region": REGION, "network": {"vpcId": vpc["vpcId"], "subnets": subnets},
                                                  **spec})
                  for kind, spec, subnets in specs for n in (1, 2)]
    deadline = time.monotonic() + 60
    for operation in operations:
        while (state := api.call("GET", f"/operations/{operation['id']}")["state"]) in ("PENDING", "RUNNING"):
            if time.monotonic() > deadline:
                raise SystemExit(f"fuzz: seeding instance {operation['instanceId']} did not finish within 60 s")
            time.sleep(0.2)
        if state != "SUCCEEDED":
            raise SystemExit(f"fuzz: seeding instance {operation['instanceId']} ended {state}")


def schemathesis(api, phases, options):
    environment = dict(os.environ, KEEL_FUZZ_TOKEN=api.token, KEEL_FUZZ_HOOKS=str(FUZZ_DIR / "hooks.py"))
    command = [str(Path(sys.executable).parent / "st"), "--config-file", str(FUZZ_DIR / "schemathesis.toml"), "run",
               CONTRACT, "--url", API, "--checks", "all", "--phases", phases, *options]
    REPORTS.mkdir(parents=True, exist_ok=True)
    # In the reports directory: Schemathesis and Hypothesis keep their state in the working directory.
    return subprocess.run(command, env=environment, cwd=REPORTS).returncode


def contract_operations():
    paths = yaml.safe_load(Path(CONTRACT).read_text())["paths"]
    return {f"{method.upper()} {path}" for path, item in paths.items() for method, operation in item.items()
            if isinstance(operation, dict) and "operationId" in operation}


def tested_operations():
    tested = set()
    for events in REPORTS.glob("ndjson-*.ndjson"):
        for line in events.read_text().splitlines():
            finished = json.loads(line).get("ScenarioFinished")
            if finished and finished.get("status") != "skip" and finished.get("recorder", {}).get("interactions"):
                tested.update(case["value"]["method"] + " " + case["value"]["path"]
                              for case in finished["recorder"]["cases"].values())
    return tested


def summary(returncode, seconds, seed_value):
    found, excused = Counter(), Counter()
    for findings in REPORTS.glob("findings-*.json"):
        found.update(json.loads(findings.read_text())["found"])
        excused.update(json.loads(findings.read_text())["excused"])
    kinds = Counter()
    for key, count in found.items():
        code = key.split()[0]
        kinds["server errors" if code in SERVER_ERRORS else "responses the contract does not allow"
              if code in CONTRACT_BREACHES else "other findings"] += count
    operations = contract_operations()
    tested = tested_operations()
    untested = sorted(operations - tested)
    failing = {key.split(" | ")[1] for key in found}
    print(f"\nContract fuzz, {seconds:.0f} s, seed {seed_value} (replay: backend/fuzz/run --seed {seed_value})")
    for kind in ("server errors", "responses the contract does not allow", "other findings"):
        print(f"  {kind + ':':40} {kinds[kind]}")
    for key, count in sorted(found.items()):
        print(f"      {count:5}  {key}")
    print(f"  {'excused (exclusions.toml):':40} {sum(excused.values())}")
    for name, count in sorted(excused.items()):
        print(f"      {count:5}  {name}")
    print(f"  {'operations tested:':40} {len(operations & tested)} of {len(operations)}"
          + (f"; untested: {', '.join(untested)}" if untested else ""))
    if returncode and not found:
        print("  Schemathesis itself reported an error: see its output above")
    failed = len(failing | set(untested)) or (1 if returncode else 0)
    print(f"fuzz: {len(operations) - failed} passed, {failed} failed")
    return 0 if returncode == 0 and not found and not untested else 1


def main():
    options = sys.argv[1:]
    if "--seed" not in options:
        options += ["--seed", str(random.getrandbits(64))]
    api = Api()
    seed(api)
    started = time.monotonic()
    stateful = schemathesis(api, "stateful", options)
    unit = schemathesis(api, "examples,coverage,fuzzing", options)
    return summary(max(stateful, unit), time.monotonic() - started, options[options.index("--seed") + 1])


if __name__ == "__main__":
    sys.exit(main())
