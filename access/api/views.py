import dataclasses
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from access import acl_changes, acl_files, acls, quota_changes, quotas, scram_users
from access.api import serializers as s
from approvals import service as approval_service
from approvals.api.serializers import ApprovalWrapSerializer
from approvals.respond import requested
from console.api.base import ConsoleAPIView
from console.api.downloads import content_disposition
from console.audit import audited
from console.clusters import ClusterConfig
from console.errors import BadInput

_FILTERS = [
    OpenApiParameter("resource_type", str, enum=list(acls.RESOURCE_TYPES)),
    OpenApiParameter("resource_name", str),
    OpenApiParameter(
        "pattern_type",
        str,
        enum=[p.lower() for p in acls.PATTERN_TYPES],
        description="literal (the default with a resource_name), prefixed, match (what "
        "applies to that resource: literal, * and prefixes) or any (the default without).",
    ),
    OpenApiParameter("principal", str, description="Exactly, e.g. User:alice."),
    OpenApiParameter("host", str),
    OpenApiParameter("operation", str, enum=list(acls.OPERATIONS)),
    OpenApiParameter("permission", str, enum=list(acls.PERMISSIONS)),
]


def _preview_or(log: audited, dry_run: bool, **changed: list) -> None:
    """A preview is audited as one (nothing changed); a change with what it changed."""
    if dry_run:
        log.outcome = "preview"
    else:
        log.details.update(changed)


def _create(
    cfg: ClusterConfig, log: audited, wanted: list[acls.AclBinding], dry_run: bool
) -> dict[str, Any]:
    """Create the bindings a create or an import asks for (a preview with dry_run), audited
    alike."""
    log.target = f"{len(wanted)} ACL bindings"
    answer = acl_changes.create_acls(cfg, wanted, dry_run=dry_run)
    _preview_or(log, dry_run, created=answer["bindings"])
    return answer


def _wanted(body: dict) -> list[acls.AclBinding]:
    """The bindings a create asks for: as given, or the CLI's producer/consumer sets."""
    if "bindings" in body:
        return [acls.binding(b, f"bindings[{i}]") for i, b in enumerate(body["bindings"])]
    out: list[acls.AclBinding] = []
    for role in ("producer", "consumer"):
        if role not in body:
            continue
        spec = body[role]
        who = acls.principal(spec["principal"], f"{role}.principal")
        where = acls.host(spec["host"], f"{role}.host")
        pattern = acls.choice(
            spec["pattern_type"], f"{role}.pattern_type", acls.BINDING_PATTERN_TYPES
        )
        if role == "producer":
            out += acls.producer_bindings(
                who,
                spec["topics"],
                pattern,
                spec["transactional_ids"],
                spec["idempotent"],
                where,
            )
        else:
            out += acls.consumer_bindings(who, spec["topics"], spec["groups"], pattern, where)
    return sorted(set(out))


class AclListView(ConsoleAPIView):
    @extend_schema(
        parameters=_FILTERS,
        responses=s.AclSerializer(many=True),
        summary="ACLs, filtered as kafka-acls.sh --list",
    )
    def get(self, request: Request, cluster: str) -> Response:
        flt = acls.acl_filter(request.query_params)
        return Response(acl_changes.list_acls(self.cluster(), flt))

    @extend_schema(
        request=s.AclCreateSerializer,
        responses=s.AclCreatedSerializer,
        summary="Create ACLs (kafka-acls.sh --add, --producer, --consumer); a preview unless "
        "dry_run is false",
    )
    def post(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        with audited(request.user, "acl.create", cluster=cfg.name, request=request.data) as log:
            body = self.validated(s.AclCreateSerializer, request.data)
            answer = _create(cfg, log, _wanted(body), body["dry_run"])
        return Response(answer)


class AclExportView(ConsoleAPIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "file_format",
                str,
                enum=list(acl_files.FORMATS),
                description="csv (default) or json",
            ),
            *_FILTERS,
        ],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="file_format=csv: the header, then a binding a line"
            ),
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description='file_format=json: {"bindings": [...]}'
            ),
        },
        summary="The ACLs a filter selects, as a file to import elsewhere",
    )
    def get(self, request: Request, cluster: str) -> HttpResponse:
        fmt = request.query_params.get("file_format") or "csv"
        if fmt not in acl_files.FORMATS:
            raise BadInput("file_format", "file_format: csv or json.")
        flt = acls.acl_filter(request.query_params)
        rows = acl_changes.list_acls(self.cluster(), flt)
        if fmt == "csv":
            response = HttpResponse(acl_files.to_csv(rows), content_type="text/csv; charset=utf-8")
        else:
            response = HttpResponse(acl_files.to_json(rows), content_type="application/json")
        response["Content-Disposition"] = content_disposition(f"acls-{cluster}.{fmt}")
        return response


class AclImportView(ConsoleAPIView):
    @extend_schema(
        request=s.AclImportSerializer,
        responses=s.AclCreatedSerializer,
        summary="Create the ACLs of a file (CSV or JSON); a preview of new and existing "
        "bindings unless dry_run is false",
    )
    def post(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        said = (
            {k: v for k, v in request.data.items() if k != "content"}
            if isinstance(request.data, dict)
            else {}
        )
        with audited(request.user, "acl.import", cluster=cfg.name, request=said) as log:
            body = self.validated(s.AclImportSerializer, request.data)
            wanted = acl_files.read(body["content"], body["format"])
            answer = _create(cfg, log, wanted, body["dry_run"])
        return Response(answer)


class AclDeleteView(ConsoleAPIView):
    @extend_schema(
        request=s.AclDeleteSerializer,
        responses={200: s.AclDeletedSerializer, 202: ApprovalWrapSerializer},
        summary="Delete the ACLs a filter selects (kafka-acls.sh --remove); a preview of exactly "
        "those unless dry_run is false",
    )
    def post(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        with audited(request.user, "acl.delete", cluster=cfg.name, request=request.data) as log:
            body = self.validated(s.AclDeleteSerializer, request.data)
            flt = acls.acl_filter(body["filter"], prefix="filter.")
            log.target = f"{flt.resource_type} {flt.resource_name} ({flt.pattern_type})"
            if not body["dry_run"] and approval_service.protected(cfg):
                preview = acl_changes.delete_acls(cfg, flt, dry_run=True)
                plan = {"filter": dataclasses.asdict(flt), "bindings": preview["bindings"]}
                count = len(preview["bindings"])
                summary = f"Delete the {count} ACL binding(s) the filter on {log.target} selects."
                found = approval_service.ask(
                    request.user, cfg, "acl.delete", log.target, plan, summary
                )
                return requested(log, found, bindings=preview["bindings"])
            answer = acl_changes.delete_acls(cfg, flt, dry_run=body["dry_run"])
            _preview_or(log, body["dry_run"], deleted=answer["bindings"])
        return Response(answer)


class ScramUserListView(ConsoleAPIView):
    read_role = "admin"

    @extend_schema(
        responses=s.ScramUserSerializer(many=True),
        summary="SCRAM users and their mechanisms (kafka-configs.sh --describe, users)",
    )
    def get(self, request: Request, cluster: str) -> Response:
        return Response(scram_users.list_users(self.cluster()))


class ScramUserView(ConsoleAPIView):
    read_role = "admin"

    @extend_schema(
        request=s.ScramUpsertSerializer,
        responses=s.ScramUserSerializer,
        summary="Create a SCRAM credential or rotate its password (the password is never "
        "stored, logged or answered)",
    )
    def put(self, request: Request, cluster: str, user: str) -> Response:
        cfg = self.cluster()
        data = request.data if isinstance(request.data, dict) else {}
        # The audit entry names the mechanism and iterations, never the password.
        said = {k: data[k] for k in ("mechanism", "iterations") if k in data}
        with audited(request.user, "scram.upsert", cluster=cfg.name, target=user, request=said):
            body = self.validated(s.ScramUpsertSerializer, request.data)
            answer = scram_users.upsert(cfg, user, body)
        return Response(answer)

    @extend_schema(
        parameters=[
            OpenApiParameter("mechanism", str, required=True, enum=list(scram_users.MECHANISMS))
        ],
        responses={200: s.ScramUserSerializer},
        summary="Delete a user's credential of one mechanism",
    )
    def delete(self, request: Request, cluster: str, user: str) -> Response:
        cfg = self.cluster()
        kind = request.query_params.get("mechanism")
        with audited(
            request.user, "scram.delete", cluster=cfg.name, target=user, request={"mechanism": kind}
        ):
            self.no_body()
            if kind is None:
                raise BadInput("mechanism", "mechanism: name the credential to delete.")
            answer = scram_users.delete(cfg, user, scram_users.mechanism(kind))
        return Response(answer)


class QuotaListView(ConsoleAPIView):
    read_role = "admin"

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "entity_type",
                str,
                many=True,
                enum=list(quotas.ENTITY_TYPES),
                description="users, clients (both: the user and client-id pairs) or ips; "
                "named and default entities, as kafka-configs.sh --describe --entity-type. "
                "Absent: every entity.",
            )
        ],
        responses=s.QuotaSerializer(many=True),
        summary="Client quotas (kafka-configs.sh --describe --entity-type users|clients|ips)",
    )
    def get(self, request: Request, cluster: str) -> Response:
        return Response(quota_changes.list_quotas(self.cluster(), _entity_types(request)))

    @extend_schema(
        request=s.QuotaChangeSerializer,
        responses=s.QuotaChangedSerializer,
        summary="Set and remove an entity's quotas (kafka-configs.sh --alter --add-config / "
        "--delete-config)",
    )
    def patch(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        with audited(request.user, "quota.alter", cluster=cfg.name, request=request.data) as log:
            body = self.validated(s.QuotaChangeSerializer, request.data)
            log.target = quotas.describe(quotas.entity(body["entity"]))
            answer = quota_changes.alter(cfg, body["entity"], body["set"], body["delete"])
            log.details.update(before=answer["before"], after=answer["values"])
        return Response(answer)


def _entity_types(request: Request) -> list[str] | None:
    """The entity_type query (repeated or comma-separated), checked as kafka-configs.sh does."""
    given = [t for v in request.query_params.getlist("entity_type") for t in v.split(",") if t]
    for name in given:
        if name not in quotas.ENTITY_TYPES:
            raise BadInput("entity_type", f"entity_type: one of users, clients, ips; not {name!r}.")
    if len(set(given)) != len(given):
        raise BadInput("entity_type", "entity_type: each type once.")
    if "ips" in given and len(given) > 1:
        raise BadInput("entity_type", "entity_type: only users and clients combine.")
    return [quotas.ENTITY_TYPES[name] for name in given] or None
