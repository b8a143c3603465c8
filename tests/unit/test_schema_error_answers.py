"""The OpenAPI schema documents every operation's error answers (400, 401, 403; 413 and 415
with a body; 502 and 504 on a cluster) and the audit log's paging bounds."""

from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]


def test_every_operation_documents_its_error_answers(viewer_client):
    response = viewer_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    error_ref = {"$ref": "#/components/schemas/Error"}
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            responses = operation["responses"]
            for code in ("400", "401", "403"):
                assert responses[code]["content"]["application/json"]["schema"] == error_ref
            if "requestBody" in operation:
                assert {"413", "415"} <= set(responses), (method, path)
            if "{cluster}" in path:
                assert {"502", "504"} <= set(responses), (method, path)
    audit = schema["paths"]["/api/v1/audit"]["get"]
    params = {p["name"]: p for p in audit["parameters"]}
    assert {"limit", "before_id", "since", "actor", "action", "cluster"} <= set(params)
    assert "1..1000" in params["limit"]["description"]
    reset_id = schema["paths"]["/api/v1/offset-resets/{reset_id}"]["get"]["parameters"][0]
    assert reset_id["schema"]["maximum"] == 2**63 - 1
