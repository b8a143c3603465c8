"""Shapes of the messages API, for the OpenAPI schema (the answers are built as plain dicts)."""

from rest_framework import serializers

from messages.decoding import FORMATS
from messages.encoding import WRITE_FORMATS


class DecodedSerializer(serializers.Serializer):
    format = serializers.ChoiceField(
        choices=[f for f in FORMATS if f != "auto"], help_text="The decoder used."
    )
    # The metaclass takes declared fields off the class: Serializer.data stays the property.
    data = serializers.JSONField(  # type: ignore[assignment]
        help_text="A JSON value (json, avro, protobuf, msgpack), text, base64 (bytes) or a "
        "number (int, long, double)."
    )
    size = serializers.IntegerField(help_text="Bytes on the wire.")
    schema_id = serializers.IntegerField(allow_null=True)
    note = serializers.CharField(
        allow_null=True, help_text="Why the asked (or automatic) decoder was not the one used."
    )


class HeaderSerializer(serializers.Serializer):
    key = serializers.CharField()
    value = DecodedSerializer(allow_null=True)


class RecordSerializer(serializers.Serializer):
    partition = serializers.IntegerField()
    offset = serializers.IntegerField()
    timestamp = serializers.CharField(allow_null=True)
    timestamp_ms = serializers.IntegerField(allow_null=True)
    timestamp_type = serializers.ChoiceField(
        choices=["CreateTime", "LogAppendTime"], allow_null=True
    )
    key = DecodedSerializer(allow_null=True)
    value = DecodedSerializer(allow_null=True, help_text="null: a tombstone.")
    headers = HeaderSerializer(many=True, help_text="All of them, in order, duplicates kept.")
    aborted = serializers.BooleanField(
        required=False, help_text="Only with isolation=read_uncommitted."
    )


class ScanSerializer(serializers.Serializer):
    scanned = serializers.IntegerField(help_text="Records read to make this page.")
    matched = serializers.IntegerField()
    stopped_by = serializers.ChoiceField(
        choices=["limit", "records", "bytes", "time", "end"],
        help_text="limit: the page is full; records, bytes, time: the scan's budget ran out "
        "(next_cursor goes on from there); end: every chosen partition's end was reached.",
    )
    positions = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Per partition, where the next page starts (next_cursor's offsets).",
    )
    elapsed_ms = serializers.IntegerField()
    filter_errors = serializers.IntegerField(
        required=False, help_text="With a filter: records it could not be evaluated on."
    )
    filter_error = serializers.CharField(
        required=False, allow_null=True, help_text="The first such error."
    )


class MessagePageSerializer(serializers.Serializer):
    records = RecordSerializer(many=True)
    next_cursor = serializers.CharField()
    prev_cursor = serializers.CharField()
    isolation = serializers.ChoiceField(choices=["read_committed", "read_uncommitted"])
    scan = ScanSerializer()


class PartSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=list(WRITE_FORMATS))
    # The metaclass takes declared fields off the class: Serializer.data stays the property.
    data = serializers.JSONField(  # type: ignore[assignment]
        help_text="json, msgpack: any JSON value; text: a string; bytes: base64; int, long, "
        "double: a number; avro, protobuf, jsonschema: the JSON form of a value of the schema."
    )
    schema_id = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="avro, protobuf, jsonschema: the registry's schema id to write with.",
    )
    subject = serializers.CharField(
        required=False,
        help_text="avro, protobuf, jsonschema: write with this subject's latest version. "
        "Without schema_id or subject: `<topic>-key` / `<topic>-value`.",
    )
    message = serializers.CharField(
        required=False, help_text="protobuf: the top-level message to write (default: the first)."
    )


class ProduceHeaderSerializer(serializers.Serializer):
    key = serializers.CharField()
    value = PartSerializer(allow_null=True)


class ProduceSerializer(serializers.Serializer):
    partition = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="Absent or null: Kafka's default partitioner (murmur2 of the key bytes, as "
        "the Java producer; a null key goes to any partition).",
    )
    key = PartSerializer(allow_null=True, help_text="null: no key.")
    value = PartSerializer(allow_null=True, help_text="null: a tombstone.")
    headers = ProduceHeaderSerializer(many=True, required=False, default=list)


class ProducedSerializer(serializers.Serializer):
    partition = serializers.IntegerField()
    offset = serializers.IntegerField()
    timestamp = serializers.CharField(allow_null=True)
