"""Users, their roles and API tokens (admin); the logic is accounts/users.py."""

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import users
from accounts.api import serializers as s
from console.api.base import ConsoleAPIView
from console.audit import audited


class _UsersView(ConsoleAPIView):
    read_role = "admin"


class UserListView(_UsersView):
    @extend_schema(responses=s.UserSerializer(many=True), summary="Console users and their roles")
    def get(self, request: Request) -> Response:
        return Response(s.UserSerializer(users.list_users(), many=True).data)

    @extend_schema(
        request=s.UserCreateSerializer,
        responses={201: s.UserSerializer},
        summary="Create a local user (without a password: API tokens only)",
    )
    def post(self, request: Request) -> Response:
        data = request.data if isinstance(request.data, dict) else {}
        said = {k: v for k, v in data.items() if k != "password"}  # never audited
        with audited(request.user, "user.create", target=self.body_field("username"), request=said):
            body = self.validated(s.UserCreateSerializer, request.data)
            user = users.create_user(body)
        return Response(s.UserSerializer(users.user_row(user)).data, status=201)


class UserDetailView(_UsersView):
    @extend_schema(responses=s.UserSerializer, summary="One console user")
    def get(self, request: Request, user_id: int) -> Response:
        return Response(s.UserSerializer(users.user_row(users.get_user(user_id))).data)

    @extend_schema(
        request=s.UserChangeSerializer,
        responses=s.UserSerializer,
        summary="Enable or disable a user, or change its roles (on every cluster, on single ones)",
    )
    def patch(self, request: Request, user_id: int) -> Response:
        user = users.get_user(user_id)
        with audited(
            request.user, "user.update", target=user.username, request=request.data
        ) as log:
            body = self.validated(s.UserChangeSerializer, request.data, partial=True)
            log.details["before"] = _roles(users.user_row(user))
            changed = users.user_row(users.change_user(request.user, user, body))
            log.details["after"] = _roles(changed)
        return Response(s.UserSerializer(changed).data)


def _roles(row: dict) -> dict:
    return {k: row[k] for k in ("is_active", "role", "cluster_roles")}


class TokenListView(_UsersView):
    @extend_schema(responses=s.TokenSerializer(many=True), summary="A user's API tokens")
    def get(self, request: Request, user_id: int) -> Response:
        return Response(
            s.TokenSerializer(users.list_tokens(users.get_user(user_id)), many=True).data
        )

    @extend_schema(
        request=s.TokenCreateSerializer,
        responses={201: s.TokenCreatedSerializer},
        summary="Make an API token for a user: its key is in this answer only",
    )
    def post(self, request: Request, user_id: int) -> Response:
        user = users.get_user(user_id)
        with audited(
            request.user, "token.create", target=user.username, request=request.data
        ) as log:
            body = self.validated(s.TokenCreateSerializer, request.data)
            made = users.make_token(user, body["name"], body["expires_in_days"])
            log.details.update(token_id=made["id"], prefix=made["prefix"])  # never the key
        return Response(s.TokenCreatedSerializer(made).data, status=201)


class TokenDetailView(_UsersView):
    @extend_schema(responses={204: None}, summary="Revoke an API token")
    def delete(self, request: Request, user_id: int, token_id: int) -> Response:
        user = users.get_user(user_id)
        with audited(request.user, "token.revoke", target=user.username) as log:
            self.no_body()
            token = users.revoke_token(user, token_id)
            log.details.update(token_id=token_id, name=token.name, prefix=token.prefix)
        return Response(status=204)
