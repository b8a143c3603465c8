import json

from tests.mutations import variants


def test_variants_touch_every_key_and_value_once_each():
    body = {"a": {"b": [1]}, "c": False}
    found = dict(variants(body))
    assert body == {"a": {"b": [1]}, "c": False}  # the original is untouched
    assert found["()+surplus"] == {"a": {"b": [1]}, "c": False, "surplus": True}
    assert found["('a',)+surplus"] == {"a": {"b": [1], "surplus": True}, "c": False}
    assert found["()-c"] == {"a": {"b": [1]}}
    assert found["('a',):b->'bs'"] == {"a": {"bs": [1]}, "c": False}
    assert found["('c',)='no'"] == {"a": {"b": [1]}, "c": "no"}
    assert found["('a', 'b', 0)=1.0"] == {"a": {"b": [1.0]}, "c": False}
    assert "('c',)=False" not in found  # the same value is no variant
    assert all(json.dumps(v) != json.dumps(body) for v in found.values())
