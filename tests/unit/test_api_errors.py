from rest_framework.exceptions import ValidationError

from console.api.errors import exception_handler
from console.kafka import KafkaCallFailed, KafkaTimeout


def test_validation_error_names_the_nested_field():
    exc = ValidationError({"strategy": {"offset": ["A valid integer is required."]}})
    response = exception_handler(exc, {})
    assert response.status_code == 400
    error = response.data["error"]
    assert error["code"] == "invalid"
    assert error["message"] == "strategy.offset: A valid integer is required."
    assert error["details"]["field"] == "strategy.offset"


def test_kafka_errors_map_to_502_and_504():
    assert exception_handler(KafkaTimeout("no answer", code="kafka_timeout"), {}).status_code == 504
    failed = exception_handler(KafkaCallFailed("refused", code="kafka_error"), {})
    assert failed.status_code == 502
    assert failed.data == {"error": {"code": "kafka_error", "message": "refused", "details": {}}}


def test_unexpected_errors_hide_the_trace():
    response = exception_handler(RuntimeError("secret internals"), {"view": None})
    assert response.status_code == 500
    assert "secret internals" not in str(response.data)
