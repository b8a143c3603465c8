"""Request and response shapes of the users API (the OpenAPI schema and the SPA's types come
from them)."""

from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from console.api.limits import KafkaText
from console.roles import ROLES

ROLE_CHOICES = list(ROLES)


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_active = serializers.BooleanField()
    is_superuser = serializers.BooleanField(help_text="Admin on every cluster, whatever else.")
    role = serializers.CharField(allow_null=True, help_text="The role on every cluster.")
    cluster_roles = serializers.DictField(
        child=serializers.CharField(), help_text="Roles on single clusters, replacing `role`."
    )
    has_password = serializers.BooleanField(help_text="False: signs in with tokens only.")
    sso = serializers.BooleanField(
        help_text="Signs in through the identity provider, which sets its roles at each sign-in."
    )
    last_login = serializers.DateTimeField(allow_null=True)
    date_joined = serializers.DateTimeField()
    tokens = serializers.IntegerField(help_text="How many API tokens the user holds.")


class UserCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(
        required=False, write_only=True, trim_whitespace=False, max_length=128
    )
    role = serializers.ChoiceField(choices=ROLE_CHOICES, required=False, allow_null=True)
    cluster_roles = serializers.DictField(
        child=serializers.ChoiceField(choices=ROLE_CHOICES), required=False, default=dict
    )

    def validate_password(self, value: str) -> str:
        validate_password(value)
        return value


class UserChangeSerializer(serializers.Serializer):
    is_active = serializers.BooleanField(required=False)
    role = serializers.ChoiceField(
        choices=ROLE_CHOICES, required=False, allow_null=True, help_text="null: no role."
    )
    cluster_roles = serializers.DictField(
        child=serializers.ChoiceField(choices=ROLE_CHOICES, allow_null=True),
        required=False,
        help_text="{cluster: role}; a null role removes the cluster's own role.",
    )


class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The key's first characters, to tell tokens apart.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    last_used_at = serializers.DateTimeField(allow_null=True)
    expired = serializers.BooleanField()


class TokenCreatedSerializer(TokenSerializer):
    key = serializers.CharField(help_text="Shown once: only its hash is kept.")


class TokenCreateSerializer(serializers.Serializer):
    name = KafkaText(max_length=100, help_text="What the token is for.")
    expires_in_days = serializers.IntegerField(
        min_value=1, max_value=3650, required=False, default=90
    )
