"""Request and response shapes of the ACL API (the OpenAPI schema, and so the SPA's types,
come from them). Names are checked by access/acls.py, which names the field it refuses."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from access.acls import BINDING_PATTERN_TYPES, OPERATIONS, PATTERN_TYPES, PERMISSIONS
from access.acls import RESOURCE_TYPES as KINDS
from access.quotas import DEFAULT, IP_KEYS, USER_CLIENT_KEYS
from access.scram_users import MAX_ITERATIONS, MECHANISMS, MIN_ITERATIONS
from console.api.limits import KafkaText


def _names(choices: tuple[str, ...], **kwargs: object) -> KafkaText:
    return KafkaText(help_text="One of " + ", ".join(choices) + " (any case).", **kwargs)


class AclSerializer(serializers.Serializer):
    """One binding, as kafka-acls.sh prints it."""

    resource_type = _names(KINDS)
    resource_name = KafkaText()
    pattern_type = _names(BINDING_PATTERN_TYPES, required=False, default="LITERAL")
    principal = KafkaText(help_text="Type:name, for example User:alice.")
    host = KafkaText(required=False, default="*", help_text="* or an IP address.")
    operation = _names(OPERATIONS)
    permission = _names(PERMISSIONS, required=False, default="ALLOW")


class AclFilterSerializer(serializers.Serializer):
    """What a delete selects, as the list's query: absent is any. A delete names a resource
    (its type and name), as kafka-acls.sh --remove requires one."""

    resource_type = _names(KINDS)
    resource_name = KafkaText()
    pattern_type = _names(PATTERN_TYPES, required=False)
    principal = KafkaText(required=False)
    host = KafkaText(required=False)
    operation = _names(OPERATIONS, required=False)
    permission = _names(PERMISSIONS, required=False)


class _RoleSerializer(serializers.Serializer):
    principal = KafkaText()
    topics = serializers.ListField(child=KafkaText(), min_length=1, max_length=1000)
    pattern_type = _names(BINDING_PATTERN_TYPES, required=False, default="LITERAL")
    host = KafkaText(required=False, default="*")


class ProducerSerializer(_RoleSerializer):
    """kafka-acls.sh --producer: --transactional-id, --idempotent."""

    transactional_ids = serializers.ListField(
        child=KafkaText(), required=False, default=list, max_length=1000
    )
    idempotent = serializers.BooleanField(required=False, default=False)


class ConsumerSerializer(_RoleSerializer):
    """kafka-acls.sh --consumer: its --group values."""

    groups = serializers.ListField(child=KafkaText(), min_length=1, max_length=1000)


class AclCreateSerializer(serializers.Serializer):
    """Bindings, or the producer and/or consumer sets; previewed unless dry_run is false."""

    bindings = AclSerializer(many=True, required=False, max_length=1000, allow_empty=False)
    producer = ProducerSerializer(required=False)
    consumer = ConsumerSerializer(required=False)
    dry_run = serializers.BooleanField(required=False, default=True)

    def validate(self, attrs: dict) -> dict:
        given = [key for key in ("bindings", "producer", "consumer") if key in attrs]
        if not given:
            raise serializers.ValidationError(
                {"bindings": "give bindings, or a producer and/or a consumer."}
            )
        if "bindings" in given and len(given) > 1:
            raise serializers.ValidationError(
                {given[1]: "bindings cannot be combined with the producer or consumer sets."}
            )
        return attrs


class AclDeleteSerializer(serializers.Serializer):
    filter = AclFilterSerializer()
    dry_run = serializers.BooleanField(required=False, default=True)


class AclCreatedSerializer(serializers.Serializer):
    dry_run = serializers.BooleanField()
    bindings = AclSerializer(many=True, help_text="Created, or to be created in a preview.")
    existing = AclSerializer(many=True, help_text="Asked for, and already in Kafka.")


class AclDeletedSerializer(serializers.Serializer):
    dry_run = serializers.BooleanField()
    bindings = AclSerializer(many=True, help_text="Deleted, or to be deleted in a preview.")


class ScramCredentialSerializer(serializers.Serializer):
    mechanism = serializers.CharField()
    iterations = serializers.IntegerField()


class ScramUserSerializer(serializers.Serializer):
    """A SCRAM user and its credentials: never a password, salt or key (Kafka keeps no
    password, and tells only the mechanism and iterations)."""

    user = serializers.CharField()
    credentials = ScramCredentialSerializer(many=True)


class ScramUpsertSerializer(serializers.Serializer):
    """kafka-configs.sh --alter --add-config 'SCRAM-SHA-512=[iterations=N,password=P]'."""

    mechanism = serializers.ChoiceField(choices=list(MECHANISMS))
    # Not trimmed: a password's spaces are part of it.
    password = KafkaText(trim_whitespace=False, max_bytes=1024, write_only=True)
    iterations = serializers.IntegerField(
        required=False, default=MIN_ITERATIONS, min_value=MIN_ITERATIONS, max_value=MAX_ITERATIONS
    )


_DEFAULT_SCHEMA = {
    "type": "object",
    "properties": {"default": {"type": "boolean", "enum": [True]}},
    "required": ["default"],
    "additionalProperties": False,
}


@extend_schema_field({"oneOf": [{"type": "string", "minLength": 1}, _DEFAULT_SCHEMA]})
class QuotaEntityName(serializers.Field):
    """A name, or {"default": true} for the type's default entity (`--entity-default`)."""

    def to_internal_value(self, data: object) -> object:
        if data == DEFAULT:
            return dict(DEFAULT)
        if not isinstance(data, str) or not data:
            raise serializers.ValidationError('give a name, or {"default": true}.')
        return KafkaText().to_internal_value(data)

    def to_representation(self, value: object) -> object:
        return value


class QuotaEntitySerializer(serializers.Serializer):
    """kafka-configs.sh's --entity-type users|clients|ips with --entity-name or
    --entity-default: a user, a client id, both, or an ip."""

    user = QuotaEntityName(required=False)
    client_id = QuotaEntityName(required=False)
    ip = QuotaEntityName(required=False, help_text="An IP address; not with user or client_id.")


_KEYS = ", ".join([*USER_CLIENT_KEYS, *IP_KEYS])


class QuotaChangeSerializer(serializers.Serializer):
    """kafka-configs.sh --alter: --add-config k=v (set) and --delete-config k (delete)."""

    entity = QuotaEntitySerializer()
    set = serializers.DictField(
        child=serializers.FloatField(),
        required=False,
        default=dict,
        help_text=f"Values to set: {_KEYS}. Byte rates and connection_creation_rate are whole "
        "numbers.",
    )
    delete = serializers.ListField(
        child=KafkaText(), required=False, default=list, max_length=10, help_text="Keys to remove."
    )


class QuotaSerializer(serializers.Serializer):
    entity = QuotaEntitySerializer()
    values = serializers.DictField(child=serializers.FloatField())


class QuotaChangedSerializer(QuotaSerializer):
    before = serializers.DictField(child=serializers.FloatField())


class AclImportSerializer(serializers.Serializer):
    """A file of bindings (docs/governance.md: CSV or JSON), created as a create would."""

    format = serializers.ChoiceField(choices=["csv", "json"])
    content = serializers.CharField(
        max_length=2_000_000, trim_whitespace=False, help_text="The file's text."
    )
    dry_run = serializers.BooleanField(required=False, default=True)
