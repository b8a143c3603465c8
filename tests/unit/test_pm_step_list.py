"""The maintenance pipeline's step list is written once, in maintenance/jobs/pipeline_steps.py.
The console's job type and the pipeline script import it; the places that cannot (the SPA's
TypeScript, the docs, the benchmark, the order in which the script calls its steps) are
checked against it here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from maintenance.jobs import JOBS_DIR
from maintenance.jobs.pipeline_steps import (
    CHALLENGE_STEP,
    PIPELINE_STEPS,
    RETRAIN_STEPS,
    STEP_KEYS,
)
from sparkjobs import steps as job_steps
from sparkjobs.catalog import JOB_TYPES

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend" / "src"


def _ts_const(path: Path, name: str) -> str:
    """The text between the brackets of `const NAME ... = [...]` or `{...}` (flat ones)."""
    found = re.search(
        rf"\bconst\s+{name}\b[^=]*=\s*[\[{{](.*?)[\]}}]", path.read_text(), flags=re.DOTALL
    )
    assert found is not None, f"{path.relative_to(ROOT)} has no const {name}"
    return found[1]


def _ts_strings(path: Path, name: str) -> list[str]:
    return re.findall(r'"([^"]*)"', _ts_const(path, name))


def _ts_keys(path: Path, name: str) -> list[str]:
    key = r'^\s*(?:"([^"]+)"|([A-Za-z_$][\w$]*))\s*:'  # "quoted": or bare:
    return [q or bare for q, bare in re.findall(key, _ts_const(path, name), flags=re.M)]


def test_the_list_module_is_importable_on_the_spark_driver():
    """The driver imports it next to the pipeline script: the standard library only."""
    tree = ast.parse((JOBS_DIR / "pipeline_steps.py").read_text())
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported == {"__future__"}
    assert PIPELINE_STEPS == tuple(STEP_KEYS) and len(set(STEP_KEYS.values())) == len(STEP_KEYS)


def test_the_registered_pipeline_job_type_has_these_steps():
    pipeline = JOB_TYPES["maintenance-pipeline"]
    assert pipeline.steps == PIPELINE_STEPS
    assert job_steps.JOB_STEPS["maintenance-pipeline"] == PIPELINE_STEPS
    assert list(pipeline.params_schema["properties"]) == list(STEP_KEYS.values())
    assert pipeline.result_schema["required"] == list(PIPELINE_STEPS)
    assert all(name in JOB_TYPES for name in PIPELINE_STEPS)  # each step is a job type


def _steps_called(script: str) -> list[str]:
    """The step names a job script's main passes to `step(...)`, in the order written (a
    name or a module constant such as CHALLENGE_STEP)."""
    tree = ast.parse((JOBS_DIR / script).read_text())
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    names = {"CHALLENGE_STEP": CHALLENGE_STEP}
    called = []
    for node in ast.walk(main):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "step"
            and node.args
        ):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant):
            called.append(first.value)
        elif isinstance(first, ast.Name):
            called.append(names[first.id])
    return called


def test_the_pipeline_script_calls_its_steps_in_the_lists_order():
    assert _steps_called("maintenance_pipeline.py") == list(PIPELINE_STEPS)


def test_the_retrain_script_calls_its_steps_in_the_lists_order():
    assert _steps_called("maintenance_retrain.py") == list(RETRAIN_STEPS)
    assert JOB_TYPES["maintenance-retrain"].steps == RETRAIN_STEPS
    assert job_steps.JOB_STEPS["maintenance-retrain"] == RETRAIN_STEPS


@pytest.mark.parametrize(
    ("path", "name"),
    [
        (FRONTEND / "api" / "maintenance.ts", "PIPELINE_STEPS"),
        (FRONTEND / "pages" / "MaintenancePage.test.tsx", "NAMES"),
    ],
    ids=["api", "page-test"],
)
def test_the_spa_lists_the_steps_in_order(path, name):
    assert _ts_strings(path, name) == list(PIPELINE_STEPS)


def test_the_spa_titles_every_step_and_every_params_object():
    steps = FRONTEND / "components" / "MaintenanceSteps.tsx"
    form = FRONTEND / "components" / "MaintenanceRunForm.tsx"
    assert _ts_keys(steps, "STEP_TITLES") == list(PIPELINE_STEPS)
    assert _ts_keys(form, "STEP_GROUPS") == list(STEP_KEYS.values())


def test_the_pipeline_docs_show_the_steps_and_their_keys():
    text = (ROOT / "docs" / "maintenance-pipeline.md").read_text()
    params_table = text.split("| key | step | notes |", 1)[1].split("\n\n", 1)[0]
    table = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|", params_table, flags=re.M)
    assert table == [(key, step) for step, key in STEP_KEYS.items()]
    result = re.search(r"\*\*Result\*\*: `(\{.*?\})`", text, flags=re.DOTALL)
    assert result is not None
    assert re.findall(r'"([\w-]+)": \{', result[1]) == list(PIPELINE_STEPS)
    drawing = text.split("## The pipeline", 1)[1].split("\n\n")[1]
    assert set(re.findall(r"[a-z]+(?:-[a-z]+)*", drawing)) == set(PIPELINE_STEPS)


def test_the_benchmark_sums_up_every_step():
    tree = ast.parse((ROOT / "bench" / "maintenance_pipeline.py").read_text())
    summary = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_summary"
    )
    keys = next(
        [k.value for k in node.keys if isinstance(k, ast.Constant)]
        for node in ast.walk(summary)
        if isinstance(node, ast.Dict) and node.keys
    )
    assert keys == list(PIPELINE_STEPS)
