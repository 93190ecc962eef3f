"""Schemathesis hooks for backend/fuzz/run: a finding that exclusions.toml excuses does not fail the run.

An exclusion names the check, and may narrow it to operations, a status and a problem `type`.
Where it lists `errors`, a refusal is excused only when every entry of the problem document's
`errors[]` matches one of them (field and message), so a request refused for an excused reason
and for another one at once still fails. What was found, excused or not, is written to
$KEEL_FUZZ_REPORTS/findings-<pid>.json for the summary.
"""

import atexit
import json
import os
import re
import tomllib
from collections import Counter
from pathlib import Path

import schemathesis

EXCLUSIONS = tomllib.loads((Path(__file__).parent / "exclusions.toml").read_text())["exclusion"]
PROBLEM_TYPE = "https://keel.dev/problems/"
excused = Counter()
found = Counter()


def _problem(response):
    try:
        document = json.loads(response.content)
    except ValueError:
        return {}
    return document if isinstance(document, dict) else {}


def _applies(exclusion, checks, operation_id, status, problem):
    return (
        any(check in exclusion["checks"] for check in checks)
        and operation_id in exclusion.get("operations", [operation_id])
        and status == exclusion.get("status", status)
        and ("type" not in exclusion or problem.get("type") == PROBLEM_TYPE + exclusion["type"])
    )


def _explains(exclusion, error):
    return any(
        re.fullmatch(allowed["field"], str(error.get("field")), re.DOTALL)
        and re.fullmatch(allowed["message"], str(error.get("message")), re.DOTALL)
        for allowed in exclusion["errors"]
    )


@schemathesis.hook
def filter_failure(context, failure, case, response):
    problem = _problem(response)
    operation_id = case.operation.definition.raw.get("operationId")
    candidates = [e for e in EXCLUSIONS if _applies(e, failure.checks, operation_id, response.status_code, problem)]
    whole = next((exclusion for exclusion in candidates if "errors" not in exclusion), None)
    if whole is not None:
        excused[whole["name"]] += 1
        return False
    errors = problem.get("errors") or []
    explaining = [next((e for e in candidates if "errors" in e and _explains(e, error)), None) for error in errors]
    if not errors or None in explaining:
        found[f"{failure.code} {failure.title} | {case.operation.label}"] += 1
        return True
    for name in {exclusion["name"] for exclusion in explaining}:
        excused[name] += 1
    return False


@atexit.register
def _write_findings():
    reports = os.environ.get("KEEL_FUZZ_REPORTS")
    if reports:
        Path(reports).mkdir(parents=True, exist_ok=True)
        findings = {"found": found, "excused": excused}
        (Path(reports) / f"findings-{os.getpid()}.json").write_text(json.dumps(findings, indent=1))
